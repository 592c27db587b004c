import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { normalizePerson, type PersonInput, personKey } from "../../src/contact-info/person";
import { type DirectoryEntry, directoryProvider } from "../../src/enrichment/directory";
import { directoryWrites, toDirectoryEntry } from "../../src/enrichment/directory-import";

// The import (directoryWrites) and the lookup (directoryProvider) against the
// real local KV: whatever a valid item holds, the keys fit KV and meet.
async function importRows(rows: Record<string, string>[]): Promise<void> {
  const entries = rows.map((row) => toDirectoryEntry(row));
  for (const entry of entries) expect(entry).not.toEqual(expect.any(String));
  for (const { key, value } of directoryWrites(entries as DirectoryEntry[])) await env.DIRECTORY.put(key, value);
}

const find = (input: PersonInput) => {
  const person = normalizePerson(input);
  return directoryProvider(env.DIRECTORY).find({
    person,
    personKey: personKey(person),
    fields: ["email", "phone"],
    attempt: 1,
  });
};

describe("the directory lookup", () => {
  it("finds an entry imported with a name as long as an item field allows", async () => {
    const first = `Ada${"a".repeat(509)}`;
    const last = `Lovelace${"e".repeat(504)}`;
    const domain = `${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(60)}.${"g".repeat(60)}.example`;
    await importRows([{ firstName: first, lastName: last, companyDomain: domain, mobilePhone: "+44 20 7946 0999" }]);
    const result = await find({ firstName: first, lastName: last, companyDomain: domain.toUpperCase() });
    expect(result.phones).toEqual([expect.objectContaining({ number: "+442079460999", source: "directory" })]);
  });

  it("finds an entry imported under an internationalized domain, in either spelling", async () => {
    await importRows([
      { fullName: "Jürgen Müller", companyDomain: "Bücher.example", workEmail: "j.mueller@bücher.example" },
    ]);
    const expected = [expect.objectContaining({ address: "j.mueller@xn--bcher-kva.example" })];
    expect((await find({ fullName: "Jürgen Müller", companyDomain: "bücher.example" })).emails).toEqual(expected);
    expect((await find({ fullName: "Jurgen Muller", companyDomain: "xn--bcher-kva.example" })).emails).toEqual(
      expected,
    );
    expect((await find({ email: "J.Mueller@BÜCHER.example" })).emails).toEqual(expected);
  });
});
