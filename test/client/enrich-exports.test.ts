import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Papa from "papaparse";
import { afterAll, describe, expect, it } from "vitest";
import { NOT_SENT, readXlsx } from "../../src/file-core/index";
import {
  checkEnriched,
  EXCEL_ROWS,
  excelBytes,
  HUBSPOT_ROWS,
  hubspotCsv,
  SALESFORCE_ROWS,
  salesforceCsv,
} from "../export-files";
import { runTool } from "./run-tool";
import { clientTestServer } from "./server";

// Issue 51 through `npm run enrich`: files that go straight back into the CRM.
const scratch = mkdtempSync(join(tmpdir(), "enrich-exports-"));
const running = clientTestServer();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const enrich = (...args: string[]) =>
  runTool("scripts/enrich.ts", [...args, "--base-url", running.server.url, "--api-key", running.key]);
const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";
const csvRows = (path: string) => {
  const text = readFileSync(path, "utf8").slice(1);
  const parsed = Papa.parse<string[]>(text, { newline: "\r\n" });
  expect(parsed.errors).toEqual([]);
  return { raw: text, rows: parsed.data.slice(0, -1) };
};

describe("npm run enrich on a HubSpot export", () => {
  const input = join(scratch, "hubspot.csv");
  const out = join(scratch, "hubspot.enriched.csv");

  it("writes one row per input row, blank rows in place, phones as they are, formulas neutralised, in plain words", async () => {
    writeFileSync(input, hubspotCsv());
    const result = await enrich(input);
    expect(result.stderr.filter((line) => line.startsWith("error"))).toEqual([]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("7 rows: 4 to send, 3 not sent (2 blank, 1 with a name but no company)");
    expect(lastLine(result.stdout)).toMatch(
      /^enriched 7 rows: \d+ found, \d+ not found, 0 failed, 3 not sent \(2 blank, 1 with a name but no company\); \d+ credits charged -> /,
    );
    const { raw, rows } = csvRows(out);
    checkEnriched(HUBSPOT_ROWS, rows, raw);
    const header = rows[0]!;
    const alan = rows[4]!;
    expect(alan[header.indexOf("enriched_error_message")]).toBe(NOT_SENT.noCompany.words);
    expect(alan[header.indexOf("enriched_error_code")]).toBe("invalid_input");
    expect(raw).toContain(",-12.5,");
    expect(raw).toContain(",+447700900123,");
    expect(raw).toContain("'-2+3+cmd|' /C calc'!A0");
    expect(raw).toContain("'@admiral");
  });

  it("says a second run of the same file is a repeat: the same batches, 0 new credits", async () => {
    const before = csvRows(out).rows;
    const result = await enrich(input);
    expect(result.status).toBe(0);
    expect(lastLine(result.stdout)).toMatch(
      /^Already enriched on \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC, 0 new credits \(that run charged \d+\)\. 7 rows: /,
    );
    expect(csvRows(out).rows).toEqual(before);
  });
});

describe("npm run enrich on a Salesforce report with its footer", () => {
  it("keeps the footer's lines as rows not sent, and the blank line before them", async () => {
    const input = join(scratch, "report.csv");
    writeFileSync(input, salesforceCsv());
    const result = await enrich(input);
    expect(result.status).toBe(0);
    expect(lastLine(result.stdout)).toContain("5 not sent (3 naming no one, 1 with a name but no company, 1 blank)");
    const { raw, rows } = csvRows(join(scratch, "report.enriched.csv"));
    checkEnriched(SALESFORCE_ROWS, rows, raw);
    expect(raw).toContain("'=1+1");
  });
});

describe("npm run enrich on an Excel file with blank rows", () => {
  it("writes them in place, to .xlsx and to .csv alike", async () => {
    const input = join(scratch, "contacts.xlsx");
    writeFileSync(input, await excelBytes());
    const toXlsx = await enrich(input, "--out", join(scratch, "contacts.enriched.xlsx"));
    expect(toXlsx.status).toBe(0);
    expect(lastLine(toXlsx.stdout)).toContain("3 not sent (2 blank, 1 with a name but no company)");
    const bytes = readFileSync(join(scratch, "contacts.enriched.xlsx"));
    const sheet = await readXlsx(new Blob([bytes]));
    checkEnriched(
      EXCEL_ROWS.map((cells) => (cells.length === 0 ? EXCEL_ROWS[0]!.map(() => "") : cells)),
      sheet.rows.map((cells) => cells.slice()),
    );
    const toCsv = await enrich(input, "--out", join(scratch, "contacts.enriched.csv"));
    expect(toCsv.status).toBe(0);
    const { raw, rows } = csvRows(join(scratch, "contacts.enriched.csv"));
    checkEnriched(
      EXCEL_ROWS.map((cells) => (cells.length === 0 ? EXCEL_ROWS[0]!.map(() => "") : cells)),
      rows,
      raw,
    );
    expect(raw).toContain(",-3.75,");
    expect(raw).toContain(",+12,");
  });
});
