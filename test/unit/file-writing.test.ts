import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import {
  CSV_BOM,
  csvLine,
  invalidRowCells,
  neutraliseCell,
  outputCells,
  outputHeader,
  RESULT_FIELDS,
  readCsvBytes,
  readXlsx,
  restoreCell,
  resultCells,
  resultColumnNames,
  writeXlsx,
} from "../../src/file-core";

/** Our writer's output read by another parser (papaparse), BOM dropped. */
const parsedByPapa = (text: string, delimiter = ",") => {
  expect(text.startsWith(CSV_BOM)).toBe(true);
  const parsed = Papa.parse<string[]>(text.slice(1), { delimiter, newline: "\r\n", skipEmptyLines: false });
  expect(parsed.errors).toEqual([]);
  return parsed.data.filter((row) => !(row.length === 1 && row[0] === ""));
};
const writeCsv = (rows: readonly string[][], delimiter = ",") =>
  CSV_BOM + rows.map((row) => csvLine(row, delimiter)).join("");

describe("neutralising cells a spreadsheet would evaluate (OWASP CSV injection)", () => {
  it.each([
    ['=HYPERLINK("http://x.example","x")', '\'=HYPERLINK("http://x.example","x")'],
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ["+12015550100", "'+12015550100"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", "'\rx"],
    ["'=already", "''=already"],
    ["Renée", "Renée"],
    ["a=b", "a=b"],
  ])("%j is written %j and reads back", (cell, written) => {
    expect(neutraliseCell(cell)).toBe(written);
    expect(restoreCell(written)).toBe(cell);
  });

  it("applies to carried-through and result cells alike, phones kept as readable text", () => {
    const results = resultCells("b1", {
      status: "completed",
      outcome: "found",
      emails: [],
      phones: [{ number: "+12015550100", type: "mobile", confidence: 0.9, source: "directory" }],
    });
    const [row] = parsedByPapa(writeCsv([outputCells(["=1+1", "@me"], 2, results)]));
    expect(row!.slice(0, 2)).toEqual(["'=1+1", "'@me"]);
    expect(row![2 + RESULT_FIELDS.indexOf("phone")]).toBe("'+12015550100");
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
    const row = outputCells(["a", "b"], 5, invalidRowCells("no"));
    expect(row.slice(0, 7)).toEqual(["a", "b", "", "", "", "", "failed"]);
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
        const kept = rows.filter((row) => row.some((value) => value !== ""));
        fc.pre(kept.length > 0);
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
