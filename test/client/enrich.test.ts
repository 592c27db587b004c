import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESULT_FIELDS, RESULT_PREFIX } from "../../src/file-core/index";
import { runTool } from "./run-tool";
import { clientTestServer } from "./server";

// `npm run enrich` as a user runs it, against a running Worker.
const scratch = mkdtempSync(join(tmpdir(), "enrich-"));
const running = clientTestServer();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const enrich = (...args: string[]) => runTool("scripts/enrich.ts", args);

const RESULT_COLUMNS = RESULT_FIELDS.map((field) => RESULT_PREFIX + field);
/** A CSV's rows as another parser (papaparse) reads them; ours must start with a BOM. */
function rowsOf(path: string, delimiter = ","): string[][] {
  const text = readFileSync(path, "utf8");
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { delimiter, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}
const lastLine = (text: string) => text.trim().split("\n").at(-1);

/** A CRM export: Record ID, First Name, Last Name, Company, Website, LinkedIn, Work Email, and a column of its own. */
function crmExport(rows: number): string {
  const lines = ["Record ID,First Name,Last Name,Company,Website,Person Linkedin Url,Work Email,Lead Source"];
  for (let i = 0; i < rows; i++) {
    // Three reserved sandbox inputs (in place of found rows): flaky.test is found on its first retry.
    if (i % 10_000 === 5) lines.push(`crm-${i},Flaky,Person${i},Flaky Inc,flaky.test,,,retry`);
    else if (i % 5 === 0)
      lines.push(
        `crm-${i},First${i},Last${i},"Acme ${i % 97}, Inc.",https://www.acme${i % 97}.example/about,,,webinar`,
      );
    else if (i % 5 === 1) lines.push(`crm-${i},,,,,https://www.linkedin.com/in/person-${i},,list`);
    else if (i % 5 === 2) lines.push(`crm-${i},,,,,,p${i}@corp${i % 13}.example,"say ""hi"""`);
    else if (i % 5 === 3) lines.push(`crm-${i},Nobody,N${i},,notfound.test,,,event`);
    else lines.push(`crm-${i},Solo${i},,,,,,"two\nlines"`);
  }
  return `${lines.join("\r\n")}\r\n`;
}

describe("npm run enrich on a 25,000-row CRM export", () => {
  const input = join(scratch, "crm-export.csv");
  const output = join(scratch, "crm-export.enriched.csv");
  let firstBatchIds: string[] = [];

  it("writes one row per input row, in order, input columns first, over three batches", async () => {
    writeFileSync(input, crmExport(25_000));
    const result = await enrich(input, "--base-url", running.server.url, "--api-key", running.key);
    console.log(`enrich: 25,000 rows in ${result.ms} ms`);
    expect(result.stderr.filter((line) => line.startsWith("error"))).toEqual([]);
    expect(result.status).toBe(0);
    expect(lastLine(result.stdout)).toMatch(
      new RegExp(
        `^enriched 25000 rows: 15000 found, 5000 not found, 0 failed, 5000 not sent \\(5000 naming no one\\); \\d+ credits charged -> ${output}$`,
      ),
    );
    expect(result.stdout).toContain("25000 rows: 20000 to send, 5000 not sent (5000 naming no one)");

    const [header, ...rows] = rowsOf(output);
    const inputRows = rowsOf(input);
    expect(header).toEqual([...inputRows[0]!, ...RESULT_COLUMNS]);
    expect(rows).toHaveLength(25_000);
    expect(rows.map((row) => row.slice(0, 8))).toEqual(inputRows.slice(1));
    const column = (name: string) => header!.indexOf(name);
    const batchIds = rows.map((row) => row[column("enriched_batch_id")]!).filter((id) => id !== "");
    firstBatchIds = [...new Set(batchIds)];
    // Rows that name no one (the Solo rows) are not sent: 20,000 items in two batches.
    expect(firstBatchIds.map((id) => batchIds.filter((batchId) => batchId === id).length)).toEqual([10_000, 10_000]);

    const [ada, linkedin, email, nobody, solo] = rows.slice(10, 15);
    expect(ada![column("enriched_email")]).toBe("first10.last10@acme10.example");
    expect(ada![column("enriched_status")]).toBe("completed");
    expect(linkedin![column("enriched_outcome")]).toBe("found");
    expect(email![column("enriched_email")]).toBe("p12@corp12.example");
    expect(nobody![column("enriched_outcome")]).toBe("not_found");
    expect([
      solo![column("enriched_status")],
      solo![column("enriched_error_code")],
      solo![column("enriched_batch_id")],
    ]).toEqual(["not_sent", "invalid_input", ""]);
    expect(rows[5]![column("enriched_outcome")]).toBe("found");
    // It waited on each batch's event stream (the server logs each one closing), not by polling.
    for (const id of firstBatchIds)
      expect(running.server.output()).toContain(`{"event":"event_stream_closed","batchId":"${id}"`);
  });

  it("creates no new batch when run again on the same file", async () => {
    const before = readFileSync(output, "utf8");
    const result = await enrich(input, "--base-url", running.server.url, "--api-key", running.key);
    expect(result.status).toBe(0);
    const [header, ...rows] = rowsOf(output);
    expect([
      ...new Set(rows.map((row) => row[header!.indexOf("enriched_batch_id")]).filter((id) => id !== "")),
    ]).toEqual(firstBatchIds);
    expect(readFileSync(output, "utf8")).toBe(before);
  });
});

describe("npm run enrich on small files", () => {
  it("prints the API's estimate with --estimate, and submits and writes nothing", async () => {
    const input = join(scratch, "estimate.jsonl");
    const person = { email: "ada@analytical.example" };
    writeFileSync(input, [person, person, { firstName: "Solo" }].map((row) => JSON.stringify(row)).join("\n"));
    const result = await enrich(input, "--estimate", "--base-url", running.server.url, "--api-key", running.key);
    expect(result.stderr).toEqual([]);
    expect(result.status).toBe(0);
    // The row naming no one is left out before the API is asked, as it would be from the run.
    expect(result.stdout).toContain("3 rows: 2 to send, 1 not sent (1 naming no one)");
    // What remains of the month's budget, before anything is spent (issue 50).
    expect(result.stdout).toContain("no monthly budget set (");
    expect(lastLine(result.stdout)).toBe(
      "estimate for 2 rows to send: 2 valid (1 duplicates, 0 cached), 0 invalid; at most 11 credits. Nothing was submitted.",
    );
    expect(existsSync(join(scratch, "estimate.enriched.csv"))).toBe(false);
  });

  it("reads JSONL, keeps a BOM-less CSV's extra columns and writes --out", async () => {
    const input = join(scratch, "people.jsonl");
    const out = join(scratch, "people-out.csv");
    writeFileSync(
      input,
      `${JSON.stringify({ "Full Name": "Grace Hopper", company_name: "Navy", tag: "vip" })}\n${JSON.stringify({ email: "alan@turing.example", tag: 7 })}\n`,
    );
    const result = await enrich(input, "--out", out, "--base-url", running.server.url, "--api-key", running.key);
    expect(result.status).toBe(0);
    expect(lastLine(result.stdout)).toMatch(
      new RegExp(`^enriched 2 rows: 2 found, 0 not found, 0 failed; \\d+ credits charged -> ${out}$`),
    );
    const [header, ...rows] = rowsOf(out);
    expect(header!.slice(0, 4)).toEqual(["Full Name", "company_name", "tag", "email"]);
    expect(rows.map((row) => row[2])).toEqual(["vip", "7"]);
  });

  it("waits out 429s instead of failing", async () => {
    const input = join(scratch, "limited.csv");
    writeFileSync(input, "Email\nslow1@limits.example\nslow2@limits.example\n");
    const first = await enrich(
      input,
      "--out",
      join(scratch, "limited-1.csv"),
      "--base-url",
      running.server.url,
      "--api-key",
      running.slowKey,
    );
    expect(first.status).toBe(0);
    // Another file straight away: its submit is over the 1-per-2-s limit.
    writeFileSync(input, "Email\nslow3@limits.example\n");
    const second = await enrich(
      input,
      "--out",
      join(scratch, "limited-2.csv"),
      "--base-url",
      running.server.url,
      "--api-key",
      running.slowKey,
    );
    expect(second.status).toBe(0);
    expect(lastLine(second.stdout)).toMatch(/^enriched 1 rows: 1 found/);
  });
});

describe("npm run enrich mistakes: one line, non-zero exit", () => {
  const people = join(scratch, "few.csv");
  beforeAll(() => writeFileSync(people, "\uFEFFFirst Name,Last Name,Company\nAda,Lovelace,Analytical\n"));

  const expectOneLine = (result: Awaited<ReturnType<typeof enrich>>, fix: RegExp) => {
    expect(result.status).not.toBe(0);
    expect(result.stderr).toHaveLength(1);
    expect(result.stderr[0]).toMatch(fix);
    expect(`${result.stdout}\n${result.stderr.join("\n")}`).not.toMatch(/^\s+at |node:internal|Lovelace/m);
  };

  it("a refused key", async () => {
    expectOneLine(
      await enrich(people, "--base-url", running.server.url, "--api-key", "ck_test_unknownunknownunknownunknown1234"),
      /^error: the API key was refused \(invalid_api_key\)/,
    );
  });

  it("an unreadable file", async () => {
    expectOneLine(await enrich(join(scratch, "missing.csv")), /^error: cannot read .*missing\.csv: no such file/);
  });

  it("a server that cannot be reached", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    expectOneLine(
      await enrich(people, "--base-url", `http://127.0.0.1:${port}`, "--api-key", running.key),
      /^error: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
  });
});
