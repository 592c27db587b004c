import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { SyncRecord } from "../../console/crm-api";
import { diffCells, diffLines, type Person, reportLines, undoPreview } from "../../console/crm-diff";
import { csvBlob } from "../../console/file-adapter";

// Shaped as GET …/crm-syncs/{id} answers (src/crm/schemas.ts).
const RECORDS: SyncRecord[] = [
  {
    index: 0,
    recordId: "101",
    outcome: "updated",
    changes: [
      {
        field: "email",
        property: "email",
        before: null,
        after: "ada@analytical.example",
        rule: "fill_empty",
        action: "write",
      },
      {
        field: "phone",
        property: "phone",
        before: "+14155550100",
        after: "+14155550199",
        rule: "skip_if_edited_by_user",
        action: "skip",
        reason: "edited_by_user",
      },
    ],
  },
  { index: 1, recordId: "102", outcome: "skipped", reason: "nothing_found", changes: [] },
  {
    index: 2,
    recordId: "103",
    outcome: "failed",
    changes: [
      {
        field: "email",
        property: "email",
        before: '=HYPERLINK("x")',
        after: "b@x.example",
        rule: "overwrite",
        action: "write",
      },
    ],
    error: { code: "crm_refused", message: "A duplicate rule blocked the update" },
  },
  { index: 3, recordId: null, outcome: "skipped", reason: "record_not_found", changes: [] },
];

// Who the batch's items are (crm-people.ts reads them from the batch): a record skipped before the CRM
// was read has no recordId, but its item has the list's record id as externalId.
const PEOPLE = new Map<number, Person>([
  [0, { name: "Ada Lovelace", externalId: "101" }],
  [1, { name: "grace@cobol.example", externalId: "102" }],
  [2, { name: '=cmd|"/c calc"!A1', externalId: "103" }],
]);

describe("the console's CRM diff", () => {
  it("shows each property before and after, what a preview would do, why, and the rule that decided", () => {
    const lines = diffLines(RECORDS, false, PEOPLE);
    expect(lines.map(diffCells)).toEqual([
      ["101", "Ada Lovelace", "email", "(empty)", "ada@analytical.example", "Write", "", "Fill empty only"],
      [
        "101",
        "Ada Lovelace",
        "phone",
        "+14155550100",
        "+14155550199",
        "Skip",
        "A person edited it in the CRM",
        "Overwrite unless a person edited it",
      ],
      ["102", "grace@cobol.example", "", "", "", "Skipped", "Nothing verified was found for this person", ""],
      [
        "103",
        '=cmd|"/c calc"!A1',
        "email",
        '=HYPERLINK("x")',
        "b@x.example",
        "Failed",
        "A duplicate rule blocked the update",
        "Overwrite",
      ],
      ["", "", "", "", "", "Skipped", "No such record in the CRM", ""],
    ]);
  });

  it("once applied, says what was written, skipped, or failed with the CRM's reason", () => {
    const actions = diffLines(RECORDS, true).map((line) => [line.action, line.why, line.code]);
    expect(actions).toEqual([
      ["Written", "", ""],
      ["Skipped", "A person edited it in the CRM", "edited_by_user"],
      ["Skipped", "Nothing verified was found for this person", "nothing_found"],
      ["Failed", "A duplicate rule blocked the update", "crm_refused"],
      ["Skipped", "No such record in the CRM", "record_not_found"],
    ]);
  });

  it("downloads as a CSV a spreadsheet opens safely: UTF-8 with a BOM, formulas neutralised, every line", async () => {
    const bytes = new Uint8Array(await csvBlob(reportLines(diffLines(RECORDS, true, PEOPLE))).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const { data, errors } = Papa.parse<string[]>(new TextDecoder().decode(bytes), { skipEmptyLines: true });
    expect(errors).toEqual([]);
    expect(data[0]).toEqual([
      "record_index",
      "record_id",
      "person",
      "property",
      "before",
      "after",
      "action",
      "why",
      "rule",
      "code",
    ]);
    expect(data).toHaveLength(6);
    expect(data[4]!.slice(0, 7)).toEqual([
      "2",
      "103",
      `'=cmd|"/c calc"!A1`,
      "email",
      `'=HYPERLINK("x")`,
      "b@x.example",
      "failed",
    ]);
  });

  it("previews an undo: each value written, back to what was there (a blank said as such); nothing else", () => {
    const applied: SyncRecord[] = [
      {
        index: 0,
        recordId: "101",
        outcome: "updated",
        changes: [
          {
            field: "email",
            property: "email",
            before: null,
            after: "ada@x.example",
            rule: "overwrite",
            action: "write",
          },
          {
            field: "phone",
            property: "phone",
            before: "+1",
            after: "+2",
            rule: "overwrite",
            action: "skip",
            reason: "same_value",
          },
        ],
      },
      {
        index: 1,
        recordId: "102",
        outcome: "updated",
        changes: [
          {
            field: "email",
            property: "email",
            before: "g@old.example",
            after: "g@x.example",
            rule: "overwrite",
            action: "write",
          },
        ],
      },
    ];
    expect(undoPreview(diffLines(applied, true, new Map([[0, { name: "Ada Lovelace", externalId: "101" }]])))).toEqual([
      "Record 101 (Ada Lovelace), email: ada@x.example back to (empty)",
      "Record 102, email: g@x.example back to g@old.example",
    ]);
    expect(undoPreview(diffLines(applied, false))).toEqual([]);
  });
});
