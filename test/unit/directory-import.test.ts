import fc from "fast-check";
import { describe, expect, it } from "vitest";
import sample from "../../directory/sample.csv?raw";
import { MAX_FIELD_LENGTH, normalizePerson } from "../../src/contact-info/person";
import { type DirectoryEntry, entryKeys, lookupKeys } from "../../src/enrichment/directory";
import {
  directoryWrites,
  learnPatterns,
  parseDirectoryFile,
  toDirectoryEntry,
} from "../../src/enrichment/directory-import";
import hubspot from "../../test/exports/hubspot-contacts.csv?raw";
import salesforceLeads from "../../test/exports/salesforce-leads.csv?raw";

describe("directory import of a CRM export", () => {
  it("imports a HubSpot export as it is: unknown columns ignored and listed, the website as a domain", () => {
    const csv = `${hubspot.trimEnd()}\r\n1,Avery,Quill,avery.quill@example.com,+1 415 555 0100,,Example Co,,CTO,https://www.example.com/about,https://www.linkedin.com/in/avery-quill-example,Sam,lead,New,2026-01-01,\r\n`;
    const { rows, rejected, ignored } = parseDirectoryFile(csv, "csv");
    expect(rejected).toEqual([]);
    expect(ignored).toEqual([
      "Record ID",
      "Job Title",
      "Contact owner",
      "Lifecycle Stage",
      "Lead Status",
      "Create Date",
      "Last Activity Date",
    ]);
    expect(toDirectoryEntry(rows[0]!.record)).toMatchObject({
      firstName: "Avery",
      lastName: "Quill",
      companyName: "Example Co",
      companyDomain: "example.com",
      linkedinSlug: "avery-quill-example",
      emails: [{ address: "avery.quill@example.com", type: "work" }],
      phones: [{ number: "+14155550100", type: "landline" }],
    });
  });

  it("imports a Salesforce leads export, its company from Company / Account", () => {
    const csv = `${salesforceLeads.trimEnd()}\r\n"Sam","Ada","Lovelace","CEO","Analytical Co","ada@analytical.example","(650) 450-8812","","www.analytical.example","Web","Open","Hot","2026-01-01","00Q1"\r\n`;
    const { rows, rejected } = parseDirectoryFile(csv, "csv");
    expect(rejected).toEqual([]);
    const warnings: string[] = [];
    expect(toDirectoryEntry(rows[0]!.record, warnings)).toMatchObject({
      companyName: "Analytical Co",
      companyDomain: "analytical.example",
      phones: [],
    });
    expect(warnings).toEqual(["workPhone is not a phone number in international form (+<country code> …); left out"]);
  });

  it("accepts the same aliases as JSONL keys, and lists the keys it ignores", () => {
    const { rows, ignored } = parseDirectoryFile(
      '{"First Name":"Avery","Last Name":"Quill","Email":"avery.quill@example.com","Shoe Size":9}\n',
      "jsonl",
    );
    expect(toDirectoryEntry(rows[0]!.record)).toMatchObject({
      firstName: "Avery",
      emails: [{ address: "avery.quill@example.com" }],
    });
    expect(ignored).toEqual(["Shoe Size"]);
  });

  it("refuses a file where no column names a field, and reports malformed rows by line", () => {
    expect(parseDirectoryFile("Shoe Size,Hat\n9,L\n", "csv").rejected[0]!.reason).toContain(
      "no column names a directory field",
    );
    expect(parseDirectoryFile('Email,Note\na@b.example,"open\nc@d.example,x\n', "csv")).toMatchObject({
      rows: [{ line: 3, record: { workEmail: "c@d.example" } }],
      rejected: [{ line: 2, reason: "a quote opened in column 2 is never closed" }],
    });
  });
});

describe("a directory row", () => {
  it("is normalized: lower-case emails and domains, E.164 phones, the LinkedIn slug", () => {
    const entry = toDirectoryEntry({
      firstName: "Ada",
      lastName: "Lovelace",
      companyDomain: "Analytical.EXAMPLE",
      linkedinUrl: "https://www.linkedin.com/in/Ada-Lovelace/",
      workEmail: "Ada.Lovelace@Analytical.example",
      mobilePhone: "+44 20 7946 0111",
      emailStatus: "valid",
    });
    expect(entry).toEqual({
      firstName: "Ada",
      lastName: "Lovelace",
      companyDomain: "analytical.example",
      linkedinSlug: "ada-lovelace",
      emails: [{ address: "ada.lovelace@analytical.example", type: "work", status: "valid" }],
      phones: [{ number: "+442079460111", type: "mobile" }],
    });
  });

  it("takes the company domain from the work email when missing", () => {
    expect(
      (toDirectoryEntry({ fullName: "Ada Lovelace", workEmail: "ada@analytical.example" }) as DirectoryEntry)
        .companyDomain,
    ).toBe("analytical.example");
  });

  it.each([
    [{ firstName: "A", lastName: "B", companyDomain: "a.example" }, "no contact data"],
    [{ mobilePhone: "+12025550100" }, "nothing to find the person by"],
    [
      { workEmail: "nope" },
      "no contact data: give workEmail, personalEmail, mobilePhone or workPhone; workEmail is not an email address",
    ],
    [{ workEmail: "a@b.example", shoeSize: "9" }, "unknown field(s) shoeSize"],
    [{ workEmail: 7 }, "workEmail must be a string"],
  ])("is rejected with a reason: %j", (record, reason) => {
    expect(toDirectoryEntry(record as Record<string, unknown>)).toEqual(expect.stringContaining(reason));
  });

  it.each([
    [
      { workEmail: "a@b.example", mobilePhone: "555 0100" },
      "mobilePhone is not a phone number in international form (+<country code> …); left out",
    ],
    [
      { workEmail: "a@b.example", linkedinUrl: "https://example.com/x" },
      "linkedinUrl is not a LinkedIn profile URL; left out",
    ],
    [
      { workEmail: "a@b.example", emailStatus: "great" },
      "emailStatus must be one of valid, probable, catch_all, invalid, unknown; left out",
    ],
  ])("leaves out a malformed optional value with a warning: %j", (record, warning) => {
    const warnings: string[] = [];
    expect(toDirectoryEntry(record, warnings)).toMatchObject({ emails: [{ address: "a@b.example" }] });
    expect(warnings).toEqual([warning]);
  });

  it("reports JSONL lines that are not objects", () => {
    const parsed = parseDirectoryFile('{"workEmail":"a@b.example"}\n[1]\nnot json\n', "jsonl");
    expect(parsed.rows).toHaveLength(1);
    expect(parsed.rejected).toEqual([
      { line: 2, reason: "not a JSON object" },
      { line: 3, reason: "not a JSON object" },
    ]);
  });
});

describe("the sample directory", () => {
  const parsed = parseDirectoryFile(sample, "csv");
  const entries = parsed.rows.map(({ record }) => toDirectoryEntry(record));

  it("imports every row", () => {
    expect(parsed.rejected).toEqual([]);
    expect(entries.every((entry) => typeof entry !== "string")).toBe(true);
  });

  it("only uses reserved example domains", () => {
    for (const entry of entries as DirectoryEntry[]) {
      for (const { address } of entry.emails) expect(address).toMatch(/@(mail\.)?example\.(com|org|net)$/);
    }
  });

  it("teaches each domain its address pattern", () => {
    const patterns = learnPatterns(entries as DirectoryEntry[]);
    expect(patterns.get("example.com")).toEqual({ pattern: "first.last", samples: 3 });
    expect(patterns.get("example.org")).toEqual({ pattern: "flast", samples: 2 });
  });

  it("writes each person under each way of finding them", () => {
    const keys = directoryWrites(entries as DirectoryEntry[]).map((write) => write.key);
    expect(keys).toContain("li:avery-quill-example");
    expect(keys).toContain("email:avery.quill@example.com");
    expect(keys).toContain("name:example.com:avery.quill");
    expect(keys).toContain("pattern:example.com");
  });
});

describe("directory keys", () => {
  const KV_MAX_KEY_BYTES = 512;
  const bytes = (key: string) => new TextEncoder().encode(key).byteLength;
  const longest = (length: number) => fc.string({ unit: "binary", minLength: 1, maxLength: length });
  const longDomain = `${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(63)}.${"g".repeat(53)}.example`;

  it("fit KV for every valid item, however long its name", () => {
    fc.assert(
      fc.property(
        longest(MAX_FIELD_LENGTH),
        longest(MAX_FIELD_LENGTH),
        fc.constantFrom("a", "ǅ", "ﷺ", "⑳", "㎒"),
        (first, last, filler) => {
          const person = normalizePerson({
            firstName: `x${filler.repeat(400)}${first}`,
            lastName: `y${last}`,
            companyDomain: longDomain,
          });
          for (const key of lookupKeys(person)) expect(bytes(key)).toBeLessThanOrEqual(KV_MAX_KEY_BYTES);
        },
      ),
    );
  });

  it("are the same for an imported row and the item that names the same person", () => {
    const first = "Ada".padEnd(MAX_FIELD_LENGTH, "a");
    const last = "Lovelace".padEnd(MAX_FIELD_LENGTH, "e");
    const entry = toDirectoryEntry({
      firstName: first,
      lastName: last,
      companyDomain: longDomain,
      workEmail: `ada@${longDomain}`,
    }) as DirectoryEntry;
    const keys = entryKeys(entry);
    for (const key of keys) expect(bytes(key)).toBeLessThanOrEqual(KV_MAX_KEY_BYTES);
    expect(
      lookupKeys(normalizePerson({ firstName: first, lastName: last, companyDomain: longDomain })).every((key) =>
        keys.includes(key),
      ),
    ).toBe(true);
  });

  it("put internationalized domains in ASCII form", () => {
    const entry = toDirectoryEntry({
      fullName: "Jürgen Müller",
      companyDomain: "Bücher.example",
      workEmail: "J.Mueller@Bücher.example",
    }) as DirectoryEntry;
    expect(entry.companyDomain).toBe("xn--bcher-kva.example");
    expect(entryKeys(entry)).toEqual([
      "email:j.mueller@xn--bcher-kva.example",
      "name:xn--bcher-kva.example:jurgen.muller",
    ]);
  });
});
