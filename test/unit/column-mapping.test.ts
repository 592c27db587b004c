import { describe, expect, it } from "vitest";
import { DIRECTORY_COLUMNS } from "../../src/enrichment/directory-import";
import {
  decideMapping,
  describeMapping,
  MappingError,
  matchColumn,
  NOT_SENT,
  PERSON_FIELDS,
  parseOverride,
  rowItem,
  websiteDomain,
} from "../../src/file-core/index";

describe("matching a header to fields", () => {
  it("takes our own names in any case or spacing", () => {
    expect(
      ["firstName", "First Name", "first_name", "FIRSTNAME", " first-name "].map((h) =>
        matchColumn(h, DIRECTORY_COLUMNS),
      ),
    ).toEqual(Array(5).fill("firstName"));
  });

  it("maps the same header to the field each caller knows", () => {
    expect(matchColumn("Email", DIRECTORY_COLUMNS)).toBe("workEmail");
    expect(matchColumn("Email", PERSON_FIELDS)).toBe("email");
    expect(matchColumn("Phone", PERSON_FIELDS)).toBeUndefined();
    expect(matchColumn("", PERSON_FIELDS)).toBeUndefined();
  });
});

describe("deciding the mapping", () => {
  const header = ["Email", "First Name", "Email", "", "Company / Account", "Shoe Size"];

  it("feeds one field from repeated columns, left to right", () => {
    expect(decideMapping(header, PERSON_FIELDS)).toEqual({ email: [0, 2], firstName: [1], companyName: [4] });
  });

  it("takes overrides by column name, and an empty one unmaps", () => {
    const overrides = ["email=Email", "companyName=", "fullName=shoe size"].map((text) => parseOverride(text)!);
    expect(decideMapping(header, PERSON_FIELDS, overrides)).toEqual({ email: [0, 2], firstName: [1], fullName: [5] });
  });

  it("names the fix for an unknown field or column", () => {
    expect(() => decideMapping(header, PERSON_FIELDS, [{ field: "phone", column: "Email" }])).toThrow(
      new MappingError(
        "--map phone=…: unknown field phone; the fields are externalId, firstName, lastName, fullName, companyName, companyDomain, linkedinUrl, email",
      ),
    );
    expect(() => decideMapping(header, PERSON_FIELDS, [{ field: "email", column: "Mail" }])).toThrow(
      /the file has no column "Mail"; its columns are "Email", "First Name"/,
    );
    expect(parseOverride("no-equals")).toBeUndefined();
  });

  it("is described for people, columns not read included", () => {
    expect(describeMapping(header, decideMapping(header, PERSON_FIELDS))).toEqual([
      'email <- "Email" (column 1), then "Email" (column 3)',
      'firstName <- "First Name" (column 2)',
      'companyName <- "Company / Account" (column 5)',
      'not read (carried through): "", "Shoe Size"',
    ]);
  });
});

describe("a row as an item", () => {
  const header = ["First Name", "Last Name", "Company", "Website", "Email", "Email", "LinkedIn"];
  const mapping = decideMapping(header, PERSON_FIELDS);

  it("takes the first non-empty of repeated columns and a website as its domain", () => {
    expect(
      rowItem(["Ada", "Lovelace", "", "https://www.acme.example.com/about", "", "ada@acme.example.com", ""], mapping),
    ).toEqual({
      item: {
        firstName: "Ada",
        lastName: "Lovelace",
        companyDomain: "acme.example.com",
        email: "ada@acme.example.com",
      },
      warnings: [],
    });
  });

  it("drops a malformed email or LinkedIn URL with a warning when the rest identifies the person", () => {
    expect(rowItem(["Ada", "Lovelace", "", "acme.example", "n/a", "", "linkedin.com/company/acme"], mapping)).toEqual({
      item: { firstName: "Ada", lastName: "Lovelace", companyDomain: "acme.example" },
      warnings: [
        "The LinkedIn URL cell is not a LinkedIn profile URL: sent without it.",
        "The Email cell is not an email address: sent without it.",
      ],
    });
  });

  it("is not sent only when nothing identifies the person, saying why in the console's sentences", () => {
    expect(rowItem(["Ada", "", "", "", "n/a", "", ""], mapping)).toEqual({
      problem: `${NOT_SENT.noOne.words} The Email cell is not an email address.`,
      reason: "noOne",
      warnings: [],
    });
    expect(rowItem(["Ada", "Lovelace", "", "", "", "", ""], mapping)).toMatchObject({
      problem: NOT_SENT.noCompany.words,
      reason: "noCompany",
    });
  });

  it("says a blank row is blank, whatever its width", () => {
    for (const cells of [[], [""], ["", " ", "", "", "", "", ""]])
      expect(rowItem(cells, mapping)).toEqual({ problem: NOT_SENT.blank.words, reason: "blank", warnings: [] });
  });

  it("turns websites into domains", () => {
    expect(
      [
        "https://www.acme.example.com",
        "www.acme.example",
        "acme.example/team",
        "http://acme.example:8080/x",
        "acme.example",
      ].map(websiteDomain),
    ).toEqual(["acme.example.com", "acme.example", "acme.example", "acme.example", "acme.example"]);
  });
});
