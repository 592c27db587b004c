import { describe, expect, it } from "vitest";
import type { BatchItem } from "../../client/src/index";
import {
  type Answer,
  enrichedLines,
  FileProblem,
  failedLines,
  prepare,
  readTable,
  rowResults,
} from "../../console/file-adapter";
import { planBatches } from "../../console/run-job";
import { ITEM_ERROR_WORDS, readCsvBytes } from "../../src/file-core/index";

const answer = (
  batchId: string,
  index: number,
  outcome: "found" | "not_found" | null,
  status = "completed",
): Answer => ({
  batchId,
  item: {
    index,
    status,
    outcome,
    emails:
      outcome === "found"
        ? [{ address: `p${index}@x.example`, type: "work", status: "valid", confidence: 90, source: "sandbox" }]
        : [],
    phones: [],
    error: status === "failed" ? { code: "processing_failed", message: "every attempt failed" } : null,
  } as unknown as BatchItem,
});

describe("the console's batches", () => {
  it("are planned 10,000 rows at a time, each with its own key made from the run", () => {
    expect(planBatches(25_001, "ab".repeat(32))).toEqual([
      { idempotencyKey: `file-${"ab".repeat(16)}-1-of-3`, start: 0, count: 10_000 },
      { idempotencyKey: `file-${"ab".repeat(16)}-2-of-3`, start: 10_000, count: 10_000 },
      { idempotencyKey: `file-${"ab".repeat(16)}-3-of-3`, start: 20_000, count: 5_001 },
    ]);
  });
});

describe("the console's downloads", () => {
  const table = readCsvBytes(
    new TextEncoder().encode(
      "Name,Company,Email,Email\r\nAda Lovelace,Analytical,,\r\nNobody,,,\r\nAlan Turing,,,alan@turing.example,extra\r\n",
    ),
  );
  const mapping = { fullName: [0], companyName: [1], email: [2, 3] };
  const prepared = prepare(table, mapping);

  it("send only the rows that identify a person, and put each answer back on its row", () => {
    expect(prepared.sentRows).toEqual([0, 2]);
    const results = rowResults(prepared, [answer("b1", 0, "found"), answer("b1", 1, null, "failed")]);
    expect(results.map((cells) => [cells.status, cells.outcome, cells.email, cells.error_code])).toEqual([
      ["completed", "found", "p0@x.example", ""],
      ["not_sent", "", "", "invalid_input"],
      ["failed", "", "", "processing_failed"],
    ]);
    const lines = enrichedLines(table, results);
    expect(lines[0]!.slice(0, 6)).toEqual(["Name", "Company", "Email", "Email", "", "enriched_batch_id"]);
    expect(lines[3]!.slice(0, 5)).toEqual(["Alan Turing", "", "", "alan@turing.example", "extra"]);
  });

  it("of failed rows keep every input cell and say why, and nothing else", () => {
    const results = rowResults(prepared, [answer("b1", 0, "found"), answer("b1", 1, null, "failed")]);
    expect(failedLines(table, results)).toEqual([
      ["Name", "Company", "Email", "Email", "", "enriched_error_code", "enriched_error_message"],
      ["Nobody", "", "", "", "", "invalid_input", expect.any(String)],
      ["Alan Turing", "", "", "alan@turing.example", "extra", "processing_failed", ITEM_ERROR_WORDS.processing_failed],
    ]);
  });

  it("mark a row sent but never answered as failed, never as empty", () => {
    const results = rowResults(prepared, [answer("b1", 0, "found")]);
    expect(results[2]).toMatchObject({ status: "failed", error_code: "no_result" });
  });
});

describe("the console's reading", () => {
  it("takes JSON Lines, every key a column in order of first appearance", async () => {
    const table = await readTable(
      new File(['{"email":"a@b.example"}\n\n{"fullName":"Ada","email":null}\n'], "people.jsonl"),
    );
    expect(table.header).toEqual(["email", "fullName"]);
    expect(table.rows.map((row) => row.cells)).toEqual([
      ["a@b.example", ""],
      ["", "Ada"],
    ]);
  });

  it("keeps a JSON line that is not an object apart, with its line number", async () => {
    const table = await readTable(new File(['{"email":"a@b.example"}\n[1]\n'], "people.jsonl"));
    expect(table.badRows.map((bad) => bad.line)).toEqual([2]);
    expect(table.rows.map((row) => row.cells)).toEqual([["a@b.example"]]);
  });

  it("keeps a line that cannot be read apart, with its line number, and reads the rest", async () => {
    const table = await readTable(new File(['email,name\r\na@b.example,"Ada\r\nc@d.example,Alan\r\n'], "people.csv"));
    expect(table.badRows.map((bad) => bad.line)).toEqual([2]);
    expect(table.rows.map((row) => row.cells)).toEqual([["c@d.example", "Alan"]]);
  });

  it("refuses a file with a header and no rows", async () => {
    await expect(readTable(new File(["email,name\r\n"], "people.csv"))).rejects.toBeInstanceOf(FileProblem);
  });
});
