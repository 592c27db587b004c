import { describe, expect, it } from "vitest";
import { matchColumn, matchColumns } from "../../src/contact-info/columns";
import { PERSON_FIELDS } from "../../src/contact-info/person";
import { DIRECTORY_COLUMNS, parseDirectoryFile, toDirectoryEntry } from "../../src/enrichment/directory-import";

describe("matching a header to known columns", () => {
  it("takes our own names in any case or spacing", () => {
    expect(["firstName", "First Name", "first_name", "FIRSTNAME", " first-name "].map((h) => matchColumn(h, DIRECTORY_COLUMNS))).toEqual(
      Array(5).fill("firstName"),
    );
  });

  it("maps a CRM export's header to the directory's columns", () => {
    const headers = ["First Name", "Last Name", "Email", "Company", "Phone", "Mobile", "LinkedIn URL", "Company Domain"];
    expect(matchColumns(headers, DIRECTORY_COLUMNS)).toEqual({
      columns: ["firstName", "lastName", "workEmail", "companyName", "workPhone", "mobilePhone", "linkedinUrl", "companyDomain"],
    });
  });

  it("maps the same header to the column each caller knows", () => {
    expect(matchColumn("Email", DIRECTORY_COLUMNS)).toBe("workEmail");
    expect(matchColumn("Email", PERSON_FIELDS)).toBe("email");
    expect(matchColumn("Phone", PERSON_FIELDS)).toBeUndefined();
  });

  it("names unknown headers and what is known", () => {
    const match = matchColumns(["First Name", "Shoe Size", ""], DIRECTORY_COLUMNS);
    expect(match).toEqual({ problem: expect.stringContaining("unknown column(s) Shoe Size, (blank); known: firstName") });
  });

  it("refuses two headers that mean the same column", () => {
    expect(matchColumns(["Email", "Work Email"], DIRECTORY_COLUMNS)).toEqual({
      problem: 'columns "Email" and "Work Email" both mean workEmail; keep one',
    });
  });
});

describe("directory import of a CRM export", () => {
  it("accepts First Name,Last Name,Email,Company with a phone and a LinkedIn URL", () => {
    const csv =
      "First Name,Last Name,Email,Company,Phone,LinkedIn URL\nAvery,Quill,avery.quill@example.com,Example Co,+1 415 555 0100,https://www.linkedin.com/in/avery-quill-example\n";
    const { rows, rejected } = parseDirectoryFile(csv, "csv");
    expect(rejected).toEqual([]);
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

  it("accepts the same aliases as JSONL keys", () => {
    const { rows } = parseDirectoryFile('{"First Name":"Avery","Last Name":"Quill","Email":"avery.quill@example.com"}\n', "jsonl");
    expect(toDirectoryEntry(rows[0]!.record)).toMatchObject({ firstName: "Avery", emails: [{ address: "avery.quill@example.com" }] });
  });
});
