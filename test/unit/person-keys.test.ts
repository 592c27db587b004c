import { describe, expect, it } from "vitest";
import { normalizePerson } from "../../src/contact-info/person";
import { hashKeys, identifierKeys, storedItemKeys } from "../../src/contact-info/person-keys";
import { sha256Hex } from "../../src/sha256";

const keysOf = (input: Parameters<typeof normalizePerson>[0]) => identifierKeys(normalizePerson(input));

describe("a person's identifier keys", () => {
  it("give one key per identifier the person carries", () => {
    expect(keysOf({ email: "a@example.com" })).toHaveLength(1);
    expect(keysOf({ linkedinUrl: "https://www.linkedin.com/in/ada-l" })).toHaveLength(1);
    expect(keysOf({ fullName: "Ada Lovelace", companyDomain: "analytical.example", companyName: "Analytical" })).toHaveLength(2);
    expect(
      keysOf({
        email: "a@example.com",
        linkedinUrl: "https://linkedin.com/in/ada-l",
        firstName: "Ada",
        lastName: "L",
        companyDomain: "x.example",
      }),
    ).toHaveLength(3);
    // A name without a company identifies no one.
    expect(keysOf({ firstName: "Ada", lastName: "Lovelace" })).toEqual([]);
  });

  it("find an item given with more fields, or written differently, by any one identifier", () => {
    const item = keysOf({
      externalId: "crm-1",
      firstName: "Ada",
      lastName: "Lovelace",
      companyDomain: "Analytical.Example",
      email: "Ada@Analytical.example",
    });
    for (const asked of [
      { email: " ada@analytical.example " },
      { fullName: "ada   lovelace", companyDomain: "analytical.example" },
      { firstName: "ADA", lastName: "lovelace", companyDomain: "ANALYTICAL.example" },
    ]) {
      expect(item).toEqual(expect.arrayContaining(keysOf(asked)));
    }
    expect(item).not.toEqual(expect.arrayContaining(keysOf({ email: "ada@other.example" })));
    expect(keysOf({ fullName: "Ada Lovelace", companyName: "Analytical" })).not.toEqual(
      keysOf({ fullName: "Ada Lovelace", companyDomain: "analytical.example" }),
    );
  });

  it("are hashed with SHA-256 as the result cache hashes a person key: a person given by one identifier alone has that hash as its cache hash", async () => {
    const person = normalizePerson({ email: "a@example.com" });
    const [hash] = await hashKeys(identifierKeys(person));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(await sha256Hex(storedItemKeys(JSON.stringify({ email: "a@example.com" }))!.personKey));
  });

  it("read a stored input, and refuse one that is not an item's", () => {
    expect(storedItemKeys(JSON.stringify({ email: "a@example.com", externalId: "x" }))?.keys).toEqual(keysOf({ email: "a@example.com" }));
    expect(storedItemKeys(JSON.stringify({ email: 42 }))).toBeNull();
  });
});
