import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readXlsx, restoreCell, writeXlsx } from "../../src/file-core/index";
import { xlsxBomb } from "../zip-bomb";
import { runTool } from "./run-tool";
import { clientTestServer } from "./server";

// `npm run enrich` on the files users really have: Excel's Windows-1252 and semicolons,
// repeated and empty headers, formulas, extra cells, a broken quote, a workbook.
const scratch = mkdtempSync(join(tmpdir(), "enrich-files-"));
const running = clientTestServer();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const enrich = (...args: string[]) =>
  runTool("scripts/enrich.ts", [...args, "--base-url", running.server.url, "--api-key", running.key]);

/** Latin-1 text as Windows-1252 bytes, as Excel on Windows saves it. */
const cp1252 = (text: string) => Uint8Array.from([...text].map((char) => char.charCodeAt(0)));
const papaRows = (path: string, delimiter: string) => {
  const bytes = readFileSync(path);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const parsed = Papa.parse<string[]>(bytes.toString("utf8").slice(1), { delimiter, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
};
const lastLine = (text: string) => text.trim().split("\n").at(-1);

describe("a Windows-1252 HubSpot export with semicolons, repeated and empty headers, formulas and extra cells", () => {
  const input = join(scratch, "hubspot.csv");
  const out = join(scratch, "hubspot.enriched.csv");
  const lines = [
    "Record ID;First Name;Last Name;Email;Email;Company Name;Website URL;;status;enriched_status",
    "1;José;Müller;n/a;jose@mueller.example;Müller & Söhne;https://www.mueller.example;;vip;x",
    '2;Renée;Ødegård;;;Acme;https://www.acme.example.com/about;"=HYPERLINK(""http://evil.example"";""x"")";+1 201 555 0100;@SUM(A1);extra',
    "3;Nobody;;;;;;;;",
  ];

  it("keeps every cell, decodes the accents, neutralises formulas and names its columns apart", async () => {
    writeFileSync(input, cp1252(`${lines.join("\r\n")}\r\n`));
    const result = await enrich(input);
    expect(result.stderr.filter((line) => line.startsWith("error"))).toEqual([]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("note: the file is not valid UTF-8; read it as Windows-1252");
    expect(result.stdout).toContain('email <- "Email" (column 4), then "Email" (column 5)');
    expect(result.stdout).toContain('companyDomain <- "Website URL" (column 7)');
    expect(lastLine(result.stdout)).toMatch(
      new RegExp(
        `^enriched 3 rows: 2 found, 0 not found, 0 failed, 1 not sent \\(1 naming no one\\); \\d+ credits charged -> ${out}$`,
      ),
    );

    const [header, ...rows] = papaRows(out, ";");
    const formula = '=HYPERLINK("http://evil.example";"x")';
    const input11 = [
      [...lines[0]!.split(";"), ""],
      [...lines[1]!.split(";"), ""],
      [
        "2",
        "Renée",
        "Ødegård",
        "",
        "",
        "Acme",
        "https://www.acme.example.com/about",
        formula,
        "+1 201 555 0100",
        "@SUM(A1)",
        "extra",
      ],
      [...lines[3]!.split(";"), ""],
    ];
    expect(header!.slice(0, 12)).toEqual([...input11[0]!, "enriched_batch_id"]);
    expect(header).toContain("enriched_status_2");
    expect(header!.filter((name) => name === "enriched_status")).toHaveLength(1); // the user's own
    const column = (name: string) => header!.indexOf(name);
    expect(rows.map((row) => row.slice(0, 11).map(restoreCell))).toEqual(input11.slice(1));
    expect(rows[1]!.slice(7, 11)).toEqual([`'${formula}`, "'+1 201 555 0100", "'@SUM(A1)", "extra"]);
    expect(readFileSync(out, "utf8")).toContain(`"'=HYPERLINK(""http://evil.example"";""x"")"`);
    // The name read right: "jose.muller", where a UTF-8 reading would have sent "jos.mller".
    expect(rows[0]![column("enriched_email")]).toBe("jose.muller@mueller.example");
    expect(rows[0]![column("enriched_warnings")]).toBe("The Email cell is not an email address: sent without it.");
    expect(rows[1]![column("enriched_status_2")]).toBe("completed");
    expect([rows[2]![column("enriched_status_2")], rows[2]![column("enriched_error_code")]]).toEqual([
      "not_sent",
      "invalid_input",
    ]);
  });
});

describe("a row that cannot be read", () => {
  const input = join(scratch, "broken.csv");
  const out = join(scratch, "broken.enriched.csv");
  beforeAll(() => {
    const rows = Array.from({ length: 998 }, (_, i) => `r${i}@rows.example,fine`);
    writeFileSync(input, `Email,Note\r\na1@rows.example,"never closed\r\n${rows.join("\r\n")}\r\n`);
  });

  it("stops the run before anything is sent, naming its line", async () => {
    const result = await enrich(input);
    expect(result.status).toBe(1);
    expect(result.stderr).toEqual([
      "error: 1 row(s) cannot be read (line 2: a quote opened in column 2 is never closed); fix the file, or pass --skip-bad-rows to leave them out; nothing was sent",
    ]);
    expect(result.stdout).not.toContain("columns:");
    expect(existsSync(out)).toBe(false);
  });

  it("is left out with --skip-bad-rows, every other row enriched", async () => {
    const result = await enrich(input, "--skip-bad-rows");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "skipping 1 row(s) that cannot be read: line 2: a quote opened in column 2 is never closed",
    );
    expect(lastLine(result.stdout)).toMatch(/^enriched 998 rows: /);
    const [, ...rows] = papaRows(out, ",");
    expect(rows.map((row) => row[0])).toEqual(Array.from({ length: 998 }, (_, i) => `r${i}@rows.example`));
  });
});

describe("a workbook", () => {
  it("reads a named sheet, takes --map, and writes .xlsx", async () => {
    const input = join(scratch, "people.xlsx");
    const out = join(scratch, "people.enriched.xlsx");
    const book = await writeXlsx(
      [
        ["Name", "Org", "Note"],
        ["Grace Hopper", "Navy", "=1+1"],
      ],
      "Leads",
    );
    writeFileSync(input, new Uint8Array(await book.arrayBuffer()));
    const result = await enrich(input, "--sheet", "Leads", "--map", "companyName=Org", "--out", out);
    expect(result.stderr.filter((line) => line.startsWith("error"))).toEqual([]);
    expect(result.stdout).toContain('companyName <- "Org" (column 2)');
    const sheet = await readXlsx(new Uint8Array(readFileSync(out)).buffer);
    const [header, row] = sheet.rows;
    expect(header!.slice(0, 4)).toEqual(["Name", "Org", "Note", "enriched_batch_id"]);
    expect(row!.slice(0, 3)).toEqual(["Grace Hopper", "Navy", "=1+1"]);
    expect(row![header!.indexOf("enriched_status")]).toBe("completed");
  });
});

describe("a 1 MB workbook that inflates to 1 GB (issue 46, item 10)", () => {
  // Its zip directory telling the truth (refused from it), or saying 1 MB (refused while inflating).
  it.each([
    ["honest", 1024],
    ["lying", 1],
  ])("(%s sizes) is refused in one plain line, exit 1, within 400 MB of memory", async (name, declaredMB) => {
    const input = join(scratch, `bomb-${name}.xlsx`);
    writeFileSync(input, xlsxBomb(1024, declaredMB));
    const args = [input, "--base-url", running.server.url, "--api-key", running.key];
    const result = await runTool("scripts/enrich.ts", args, {}, { measure: true });
    expect(result.status).toBe(1);
    expect(result.stderr).toEqual([
      `error: ${input}: the workbook would unpack to more than 64 MB (the most read here); save the sheet as CSV, or split it`,
    ]);
    // The most the command, tsx and npx held at once (GNU time); 1.1 GB before the limit.
    expect(result.peakRssKb).toBeLessThan(400 * 1024);
  });
});

describe("command-line mistakes: one plain line with the fix, exit 2", () => {
  const people = join(scratch, "few.csv");
  beforeAll(() => writeFileSync(people, "First Name,Last Name,Company\nAda,Lovelace,Analytical\n"));

  it.each([
    [
      ["--encoding", "klingon"],
      /^error: --encoding is one of utf-8, utf-16le, utf-16be, windows-1252, not klingon \(see --help\)$/,
    ],
    [["--delimiter", "|"], /^error: --delimiter is comma, semicolon or tab, not "\|" \(see --help\)$/],
    [["--map", "companyName"], /^error: --map takes FIELD=COLUMN/],
    [["--map", "phone=Company"], /^error: --map phone=…: unknown field phone; the fields are externalId, /],
    [
      ["--map", "companyName=Org"],
      /^error: --map companyName=Org: the file has no column "Org"; its columns are "First Name", "Last Name", "Company"/,
    ],
    [["--sheet", "Leads"], /^error: --sheet is for an \.xlsx INPUT; drop it/],
    [["--out", "x.json"], /^error: --out ends in \.csv or \.xlsx, not x\.json/],
  ])("%j", async (args, fix) => {
    const result = await enrich(people, ...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toHaveLength(1);
    expect(result.stderr[0]).toMatch(fix);
    expect(result.stdout).not.toContain("columns:");
  });
});
