import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, FileChooser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_KEYS } from "../../scripts/dev-keys";
import type { LocalServer } from "../../scripts/local-server";
import { readXlsx } from "../../src/file-core/xlsx";
import { desktopPage, launchChromium, seededServer } from "./chromium";

const TEST_KEY = DEV_KEYS.find((key) => key.environment === "test")!.key;

// A HubSpot-style export as Excel on Windows saves it: Windows-1252, a repeated
// "Email" header (the second one filled), and a LinkedIn column no alias knows.
const HEADER = "Record ID,First Name,Last Name,Company Name,Website URL,Email,Email,Job Title,LI Profile";
const ROWS = [
  "101,José,Müller,Müller & Söhne,https://www.analytical.example,,,Geschäftsführer,",
  "102,Grace,Hopper,,,,,Admiral,https://www.linkedin.com/in/grace-hopper",
  "103,No,Body,,notfound.test,,,=1+2,",
  "104,Only,,,,,,,",
  "105,Alan,Turing,,,,alan@turing.example,,",
  "106,No,Body,,notfound.test,,,,",
];
const CSV_1252 = Buffer.from(`${[HEADER, ...ROWS].join("\r\n")}\r\n`, "latin1");
const UPLOAD = { name: "hubspot-export.csv", mimeType: "text/csv", buffer: CSV_1252 };

/** RFC 4180 rows of a CSV the page wrote (quoted cells, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split("\r\n").filter((l) => l !== "")) {
    const cells: string[] = [];
    for (const match of line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
      const cell = match[1]!;
      cells.push(cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell);
      if (match[2] === "") break;
    }
    rows.push(cells);
  }
  return rows;
}

describe("the /app console in a real browser", () => {
  let server: LocalServer;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  // The enriched CSV the page wrote, for the comparison with the command line's.
  let pageCsv = "";

  beforeAll(async () => {
    server = await seededServer();
    browser = await launchChromium();
    // Kept to the server's origin: a request for another host is refused, and recorded, failing the last test.
    page = await desktopPage(browser, server.url);
    page.on("request", (request) => requested.push(request.url()));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("is served at /app with a policy that allows only its own origin", async () => {
    const response = await page.goto(`${server.url}/app`, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("default-src 'self'");
    await expect(page.getByRole("heading", { name: "Enrich a spreadsheet" }).isVisible()).resolves.toBe(true);
  });

  it("takes a key from the keyboard, then shows the account's rate limits and usage", async () => {
    await page.keyboard.press("Tab");
    await expect(page.evaluate("document.activeElement.id")).resolves.toBe("api-key");
    await page.keyboard.type(TEST_KEY);
    await page.keyboard.press("Enter");
    // Behind "Details": a sales-ops person rarely needs them.
    await page.locator("#limits td", { hasText: "Starting batches" }).waitFor({ state: "attached", timeout: 30_000 });
    await page.locator("#usage svg[role=img]").waitFor({ timeout: 30_000 });
    expect(
      await page.evaluate(() =>
        Object.keys(localStorage).some((k) => (localStorage.getItem(k) ?? "").includes("ck_test_")),
      ),
    ).toBe(false);
  });

  it("reads a Windows-1252 export with repeated headers, chosen from the keyboard, and counts its rows before sending", async () => {
    // Key field, "Use key", "Forget key", the selected tab (Spreadsheet), then the file picker.
    for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
    await expect(page.evaluate("document.activeElement.id")).resolves.toBe("file");
    // Space opens the picker. On a loaded machine Chromium has been seen to take the key before Playwright's
    // interception of the picker was in place (no event at all): the key is pressed again, still the keyboard.
    let chooser: FileChooser | null = null;
    for (let attempt = 0; attempt < 3 && chooser === null; attempt++) {
      const opened = page.waitForEvent("filechooser", { timeout: 10_000 }).catch(() => null);
      await page.keyboard.press("Space");
      chooser = await opened;
    }
    if (chooser === null) throw new Error("the file picker did not open from the keyboard");
    await chooser.setFiles(UPLOAD);
    await page.locator("#preview td", { hasText: "José" }).first().waitFor({ timeout: 10_000 });
    await expect(page.locator("#file-status").textContent()).resolves.toContain("Windows-1252");
    await expect(page.locator("#preview th").allTextContents()).resolves.toEqual(HEADER.split(","));
    await expect(page.locator("#map-email").inputValue()).resolves.toBe("Email");
    await expect(page.locator("#map-linkedinUrl").inputValue()).resolves.toBe("");
    const counts = async () => ({
      rows: await page.locator("#count-rows").textContent(),
      valid: await page.locator("#count-valid").textContent(),
      invalid: await page.locator("#count-invalid").textContent(),
      duplicates: await page.locator("#count-duplicates").textContent(),
    });
    // Grace Hopper has only a LinkedIn URL, in a column the page cannot guess: invalid until mapped.
    await expect(counts()).resolves.toEqual({ rows: "6", valid: "4", invalid: "2", duplicates: "1" });
    await page.getByLabel("LinkedIn URL").selectOption("LI Profile");
    await expect(counts()).resolves.toEqual({ rows: "6", valid: "5", invalid: "1", duplicates: "1" });
    // Before Start, what it would cost at most: 4 people to look up, an email (1) and a phone (10) each.
    await page
      .locator("#estimate", { hasText: "at most 44 credits for 5 rows (1 duplicate, free)" })
      .waitFor({ timeout: 10_000 });
  });

  it("runs the file against the sandbox, survives a reload, and downloads it enriched", async () => {
    const reads: string[] = [];
    const onRequest = (request: { method(): string; url(): string }) => {
      const url = new URL(request.url());
      if (request.method() === "GET") reads.push(`${url.pathname}${url.search}`);
    };
    page.on("request", onRequest);
    await page.getByRole("button", { name: "Start" }).click();
    await page
      .locator("#run-status", {
        hasText: /^Done: 6 rows: 3 found, 2 not found, 0 failed, 1 not sent \(1 naming no one\)\. /,
      })
      .waitFor({ timeout: 60_000 });
    page.off("request", onRequest);
    // Progress came over the batch's event stream; its status was read only for the results (no polls of one item).
    expect(
      reads.filter((path) => /\/person\/contact-info\/[0-9a-f-]{36}\/events\?items=true$/.test(path)),
    ).toHaveLength(1);
    expect(reads.filter((path) => /\/person\/contact-info\/[0-9a-f-]{36}\?limit=1$/.test(path))).toEqual([]);

    // A reload keeps the run (localStorage) and the key (sessionStorage), creating no second batch.
    await page.reload({ waitUntil: "load" });
    await page
      .locator("#run-status", {
        hasText: /^Done: 6 rows: 3 found, 2 not found, 0 failed, 1 not sent \(1 naming no one\)\. /,
      })
      .waitFor({ timeout: 60_000 });
    await page.locator("#need-file").waitFor({ state: "visible", timeout: 30_000 });
    await page.setInputFiles("#file", UPLOAD);
    await page.locator("#need-file").waitFor({ state: "hidden", timeout: 10_000 });
    await expect(page.getByRole("button", { name: "Download enriched CSV" }).isEnabled()).resolves.toBe(true);
    await expect(page.locator("#map-linkedinUrl").inputValue()).resolves.toBe("LI Profile");
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.locator("#batches td", { hasText: "completed" }).first().waitFor({ state: "attached", timeout: 30_000 });
    await expect(page.locator("#batches tbody tr").count()).resolves.toBe(1);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download enriched CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("hubspot-export.enriched.csv");
    const text = readFileSync(await download.path(), "utf8");
    pageCsv = text;
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    // Every input cell as read (the formula neutralised), then the enriched_ columns.
    expect(header!.slice(0, 9)).toEqual(HEADER.split(","));
    expect(header!.slice(9, 12)).toEqual(["enriched_batch_id", "enriched_status", "enriched_outcome"]);
    expect(rows.map((row) => row.slice(0, 9).join(","))).toEqual(ROWS.map((row) => row.replace(",=1+2,", ",'=1+2,")));
    const column = (name: string) => rows.map((row) => row[header!.indexOf(name)]);
    expect(column("enriched_outcome")).toEqual(["found", "found", "not_found", "", "found", "not_found"]);
    expect(column("enriched_status")).toEqual([
      "completed",
      "completed",
      "completed",
      "not_sent",
      "completed",
      "completed",
    ]);
    expect(column("enriched_error_code")).toEqual(["", "", "", "invalid_input", "", ""]);

    // The workbook holds the same cells as the CSV (the XLSX library, loaded only now, read back by the core).
    const [workbook] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download enriched XLSX" }).click(),
    ]);
    expect(workbook.suggestedFilename()).toBe("hubspot-export.enriched.xlsx");
    const sheet = await readXlsx(new Uint8Array(readFileSync(await workbook.path())).buffer);
    // Text cells are never evaluated, so the workbook keeps every cell as it was read: the CSV's
    // neutralising quote (before = + - @, tab, CR, or a quote) is not there.
    const asRead = (cell: string) => (/^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell);
    expect(sheet.rows).toEqual([header!, ...rows].map((row) => row.map(asRead)));

    const [failed] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download failed rows" }).click(),
    ]);
    const [failedHeader, ...failedRows] = parseCsv(readFileSync(await failed.path(), "utf8").slice(1));
    expect(failedHeader).toEqual([...HEADER.split(","), "enriched_error_code", "enriched_error_message"]);
    expect(failedRows.map((row) => row.slice(0, 10))).toEqual([[...ROWS[3]!.split(","), "invalid_input"]]);
  });

  it("writes the same file as npm run enrich with the same mapping, but for the batch id", () => {
    const folder = mkdtempSync(join(tmpdir(), "console-vs-cli-"));
    try {
      const input = join(folder, UPLOAD.name);
      const out = join(folder, "cli.enriched.csv");
      writeFileSync(input, CSV_1252);
      const args = ["--map", "linkedinUrl=LI Profile", "--out", out, "--base-url", server.url, "--api-key", TEST_KEY];
      execFileSync("npx", ["tsx", "scripts/enrich.ts", input, ...args], { stdio: "ignore", timeout: 120_000 });
      const cliCsv = readFileSync(out, "utf8");
      // Each run has its own batch (its own Idempotency-Key): the one column that differs.
      const withoutBatchId = (csv: string) => {
        const [header, ...rows] = parseCsv(csv.slice(1));
        const at = header!.indexOf("enriched_batch_id");
        return [header, ...rows.map((row) => row.map((cell, i) => (i === at ? "…" : cell)))];
      };
      expect(pageCsv.charCodeAt(0)).toBe(0xfeff);
      expect(cliCsv.charCodeAt(0)).toBe(0xfeff);
      expect(withoutBatchId(pageCsv)).toEqual(withoutBatchId(cliCsv));
      expect(pageCsv.replace(/[0-9a-f-]{36}/g, "…")).toBe(cliCsv.replace(/[0-9a-f-]{36}/g, "…"));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("is captured at 1280 and 390 px wide, with no horizontal scrolling at 390", async () => {
    mkdirSync("artifacts", { recursive: true });
    await page.screenshot({ path: "artifacts/console-1280.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "artifacts/console-390.png", fullPage: true });
    const overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBe(0);
  });

  it("loads nothing from other hosts", () => {
    expect(requested.length).toBeGreaterThanOrEqual(5);
    expect(requested.filter((url) => new URL(url).origin !== server.url)).toEqual([]);
  });
});
