import { mkdirSync, readFileSync } from "node:fs";
import Papa from "papaparse";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_KEYS } from "../../scripts/dev-keys";
import type { LocalServer } from "../../scripts/local-server";
import { restoreCell } from "../../src/file-core/index";
import { hubspot } from "../fakes/hubspot";
import { type LoopbackFake, serveOnLoopback } from "../fakes/loopback";
import { desktopPage, launchChromium, seededServer } from "./chromium";

// Issue 37, the console's CRM tab: connect HubSpot (the fake of test/fakes/hubspot.ts, served on
// 127.0.0.1 and named by HUBSPOT_API_URL), enrich a list, preview the write-back, apply it, read the
// results and the report. Screenshots at 1280 and 390 px in artifacts/console-crm-<name>-<width>.png.
const TEST_KEY = DEV_KEYS.find((key) => key.environment === "test")!.key;
const TOKEN = "pat-na1-console-sandbox";
const LIST = "42";
const FORMULA = '=HYPERLINK("https://evil.example","x")';
// The list: an empty email (written), one a rep typed (kept), a name a web form filled with a formula
// (shown as text; the report neutralises it), a person the sandbox finds nothing for, one whose email a
// rep types between the preview and the apply (left as the rep typed it), and one HubSpot refuses.
const CONTACTS = [
  { id: "201", properties: { firstname: "Ada", lastname: "Lovelace", website: "analytical.example" } },
  {
    id: "202",
    properties: { firstname: "Grace", lastname: "Hopper", website: "cobol.example", email: "grace@rep.example" },
    sourceTypes: { email: "CRM_UI" },
  },
  { id: "203", properties: { firstname: FORMULA, lastname: "Turing", website: "bombe.example" } },
  { id: "204", properties: { firstname: "No", lastname: "Body", website: "notfound.test" } },
  { id: "205", properties: { firstname: "Kate", lastname: "Johnson", website: "orbit.example" } },
  // Another contact (not in the list) already holds the address found for Alan Kay: HubSpot refuses that one write.
  { id: "206", properties: { firstname: "Alan", lastname: "Kay", website: "parc.example" } },
  // Then 100 the sandbox finds nothing for: the diff's second page.
  ...Array.from({ length: 100 }, (_, i) => ({
    id: String(300 + i),
    properties: { firstname: "Nobody", lastname: `Number${i}`, website: "notfound.test" },
  })),
];

describe("the /app console's CRM tab (issue 37)", () => {
  let server: LocalServer;
  let fake: LoopbackFake;
  let browser: Browser;
  let page: Page;

  const fakeCall = async (path: string, body?: unknown) =>
    (
      await fetch(`${fake.url}/__fake/${path}`, {
        method: body === undefined ? "GET" : "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json() as Promise<{ properties: Record<string, string> } & Record<string, unknown>>;

  async function capture(name: string): Promise<void> {
    mkdirSync("artifacts", { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `artifacts/console-crm-${name}-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `artifacts/console-crm-${name}-390.png`, fullPage: true });
    expect(await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /** The diff table's lines for one record, each as { Record, Person, Property, Before, After, Action, Why, Rule }. */
  const rowsOf = async (recordId: string) =>
    (
      await page.locator("#crm-diff").evaluate((table) => {
        const header = [...table.querySelectorAll("th")].map((cell) => cell.textContent ?? "");
        return [...table.querySelectorAll("tbody tr")].map((row) =>
          Object.fromEntries([...row.querySelectorAll("td")].map((cell, i) => [header[i], cell.textContent ?? ""])),
        );
      })
    ).filter((line) => line.Record === recordId);

  beforeAll(async () => {
    fake = await serveOnLoopback(hubspot);
    const holder = { id: "999", properties: { firstname: "Alan", lastname: "Kay", email: "alan.kay@parc.example" } };
    const list = CONTACTS.map((c) => c.id);
    await fakeCall("portals", {
      token: TOKEN,
      contacts: [...CONTACTS, holder],
      lists: { [LIST]: list, "7": [] },
      listNames: { [LIST]: "Conference leads", "7": "Newsletter" },
    });
    server = await seededServer({ HUBSPOT_API_URL: fake.url });
    browser = await launchChromium();
    page = await desktopPage(browser, server.url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it("connects HubSpot with a token the CRM accepts, says why it refuses another, and advises a sandbox", async () => {
    await page.goto(`${server.url}/app#crm`, { waitUntil: "load" });
    await expect(page.getByRole("tab", { name: "CRM" }).getAttribute("aria-selected")).resolves.toBe("true");
    // The tabs from the keyboard: the arrows move between them, the address keeps the choice.
    await page.getByRole("tab", { name: "CRM" }).focus();
    await page.keyboard.press("ArrowLeft");
    await page.getByRole("heading", { name: "Enrich a spreadsheet" }).waitFor();
    expect(new URL(page.url()).hash).toBe("");
    await page.keyboard.press("ArrowRight");
    await page.getByRole("heading", { name: "Connect a CRM" }).waitFor();
    expect(new URL(page.url()).hash).toBe("#crm");
    await page.fill("#api-key", TEST_KEY);
    await page.press("#api-key", "Enter");
    await page.locator("#crm-sandbox", { hasText: "connect a CRM sandbox" }).waitFor();
    // Each CRM's help, from its declaration when the page was built (issue 47).
    await expect(page.locator("#crm-sandbox").textContent()).resolves.toContain(
      "(a HubSpot developer test account, a Salesforce sandbox)",
    );
    await expect(page.locator("#crm-token-help").textContent()).resolves.toMatch(
      /^HubSpot: a private app's access token \(Settings › Integrations › Private apps\) .*\. Salesforce: .* and your instance's address \(…my\.salesforce\.com\)\. The token is checked/,
    );
    await expect(page.locator("#crm-list-help").textContent()).resolves.toMatch(
      /HubSpot: the number in the list's address \(…\/objectLists\/123\)\. Salesforce: a Contacts list view's ID \(00B…\)/,
    );
    // Salesforce needs its instance's address too, on a Salesforce host.
    await page.locator("#crm-provider").selectOption("salesforce");
    await expect(page.locator("#crm-instance").getAttribute("required")).resolves.toBe("");
    await expect(page.locator("#crm-instance").getAttribute("placeholder")).resolves.toBe(
      "https://yourcompany.my.salesforce.com",
    );
    await page.locator("#crm-token").fill("00D000000000001!AQ0AQ");
    await page.locator("#crm-instance").fill("https://crm.evil.example");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page
      .locator("#crm-connect-status", { hasText: /^Salesforce is not connected: The instance URL must be https:/ })
      .waitFor({ timeout: 30_000 });
    await page.locator("#crm-provider").selectOption("hubspot");
    await expect(page.locator("#crm-instance").isHidden()).resolves.toBe(true);
    await page.locator("#crm-connections caption", { hasText: "No CRM connected yet." }).waitFor({ timeout: 30_000 });
    await page.locator("#crm-token").fill("pat-na1-revoked-long-ago");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.locator("#crm-connect-status", { hasText: "HubSpot is not connected" }).waitFor({ timeout: 30_000 });
    await expect(page.locator("#crm-connections tbody tr").count()).resolves.toBe(0);
    await page.locator("#crm-token").fill(TOKEN);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.locator("#crm-connect-status", { hasText: "HubSpot connected" }).waitFor({ timeout: 30_000 });
    await page.getByRole("cell", { name: "HubSpot", exact: true }).waitFor();
    await expect(page.locator("#crm-token").inputValue()).resolves.toBe("");
    // The token went to the API, never into the page's storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(TOKEN);
  });

  it("enriches the list with live progress, then previews each record's change with the rule that decided", async () => {
    // Every text the status line shows, in order (a test in Node cannot see the ones in between otherwise).
    await page.evaluate(`{
      window.seen = [];
      const record = (list) => { for (const change of list) for (const node of change.addedNodes) window.seen.push(node.textContent); };
      new MutationObserver(record).observe(document.getElementById("crm-run-status"), { childList: true });
    }`);
    // The list picked by its name from HubSpot's lists (the ID field stays for one not shown); then
    // the cost first, as for a file: the list is read, nothing is made.
    const picker = page.getByRole("combobox", { name: /^List\b/ });
    await page.locator("#crm-list-pick option", { hasText: "Conference leads (106 records)" }).waitFor({
      state: "attached",
      timeout: 30_000,
    });
    await expect(picker.locator("option").allTextContents()).resolves.toEqual([
      "Choose one of 2 lists…",
      "Newsletter (0 records)",
      "Conference leads (106 records)",
    ]);
    await picker.selectOption({ label: "Conference leads (106 records)" });
    await expect(page.locator("#crm-list-id").inputValue()).resolves.toBe(LIST);
    await page
      .locator("#crm-estimate", { hasText: /^Estimate: at most [\d,]+ credits for 106 records; you pay only/ })
      .waitFor({ timeout: 30_000 });
    mkdirSync("artifacts", { recursive: true });
    await page
      .locator("section", { has: page.locator("#crm-list-form") })
      .screenshot({ path: "artifacts/console-crm-list-picker.png" });
    await page.getByRole("button", { name: "Enrich this list" }).click();
    await page.locator("#crm-run-status", { hasText: /^Done: 106 records of list 42/ }).waitFor({ timeout: 60_000 });
    const seen = (await page.evaluate("window.seen")) as string[];
    expect(
      seen.filter((text) => /^\d+ of 106 rows done: \d+ found/.test(text)).length,
      seen.join("\n"),
    ).toBeGreaterThan(0);
    await expect(page.locator("#crm-batch").inputValue()).resolves.not.toBe("");
    await page.locator("#crm-rule-email").selectOption("skip_if_edited_by_user");
    await page.locator("#crm-rule-phone").selectOption("");
    await page.getByRole("button", { name: "Preview changes" }).click();
    await page.locator("#crm-sync-status", { hasText: /^Preview: / }).waitFor({ timeout: 60_000 });
    const email = { Property: "email", Rule: "Overwrite unless a person edited it" };
    expect(await rowsOf("201")).toEqual([
      expect.objectContaining({ ...email, Before: "(empty)", After: expect.stringMatching(/@/), Action: "Write" }),
    ]);
    expect(await rowsOf("202")).toEqual([
      expect.objectContaining({
        ...email,
        Before: "grace@rep.example",
        Action: "Skip",
        Why: "A person edited it in the CRM",
      }),
    ]);
    // A formula in a name is shown as the text it is.
    expect(await rowsOf("203")).toEqual([
      expect.objectContaining({ ...email, Person: `${FORMULA} Turing`, Before: "(empty)", Action: "Write" }),
    ]);
    // Skipped before the CRM was read, it is still named by its record (the item's externalId).
    expect(await rowsOf("204")).toEqual([
      expect.objectContaining({
        Person: "No Body",
        Action: "Skipped",
        Why: "Nothing verified was found for this person",
      }),
    ]);
    await expect(page.locator("#crm-count-updated").textContent()).resolves.toBe("4");
    await expect(page.locator("#crm-count-skipped").textContent()).resolves.toBe("102");
    // A page at a time (the API's 100), the next on demand.
    await page.locator("#crm-diff caption", { hasText: "100 records shown" }).waitFor();
    await page.getByRole("button", { name: "Show more records" }).click();
    await page.locator("#crm-diff caption", { hasText: "106 records shown" }).waitFor({ timeout: 30_000 });
    await expect(page.getByRole("button", { name: "Show more records" }).isHidden()).resolves.toBe(true);
    // Nothing written yet.
    expect((await fakeCall(`contacts/${TOKEN}/201`)).properties.email).toBeUndefined();
    // Only what would be written, when asked: the 100 records with nothing found hidden.
    await page.getByLabel("Show only the records with something to write").check();
    await page.locator("#crm-diff caption", { hasText: "4 records with something to write, of 106 shown" }).waitFor();
    await expect(page.locator("#crm-diff tbody tr").count()).resolves.toBe(4);
    await page
      .locator("section", { has: page.locator("#crm-sync-title") })
      .screenshot({ path: "artifacts/console-crm-write-back.png" });
    await page.getByLabel("Show only the records with something to write").uncheck();
    await capture("preview");
  });

  it("applies exactly the preview: a value a rep typed since is kept, the rest written, per record", async () => {
    await fakeCall("edit", { token: TOKEN, id: "205", property: "email", value: "kate@rep.example" });
    await page.getByRole("button", { name: "Apply these changes" }).click();
    await page.locator("#crm-sync-status", { hasText: /^Applied: / }).waitFor({ timeout: 60_000 });
    const [ada] = await rowsOf("201");
    expect(ada!.Action).toBe("Written");
    expect((await fakeCall(`contacts/${TOKEN}/201`)).properties.email).toBe(ada!.After);
    expect((await fakeCall(`contacts/${TOKEN}/202`)).properties.email).toBe("grace@rep.example");
    expect(await rowsOf("205")).toEqual([
      expect.objectContaining({ Action: "Skipped", Why: "Changed in the CRM since the preview: left as it is" }),
    ]);
    expect((await fakeCall(`contacts/${TOKEN}/205`)).properties.email).toBe("kate@rep.example");
    // HubSpot refused one record's update (207): it failed alone, with HubSpot's reason.
    expect(await rowsOf("206")).toEqual([
      expect.objectContaining({ Action: "Failed", Why: expect.stringContaining("Contact already exists") }),
    ]);
    await expect(page.locator("#crm-count-failed").textContent()).resolves.toBe("1");
    await expect(page.getByRole("button", { name: "Apply these changes" }).isHidden()).resolves.toBe(true);
    await capture("applied");
  });

  it("downloads the report (UTF-8 with a BOM, formulas neutralised) and finds it all again after a reload", async () => {
    const [report] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download report" }).click(),
    ]);
    expect(report.suggestedFilename()).toMatch(/^crm-sync-.+\.applied\.csv$/);
    const bytes = readFileSync(await report.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const { data, errors } = Papa.parse<Record<string, string>>(bytes.toString("utf8").slice(1), {
      header: true,
      skipEmptyLines: true,
    });
    expect(errors).toEqual([]);
    const alan = data.find((row) => row.record_id === "203")!;
    expect(alan.person).toBe(`'${FORMULA} Turing`);
    expect(restoreCell(alan.person!)).toBe(`${FORMULA} Turing`);
    expect(alan.action).toBe("written");
    expect(data.find((row) => row.record_id === "205")!.code).toBe("changed_since_preview");
    expect(new Set(data.map((row) => row.record_id))).toEqual(new Set(CONTACTS.map((c) => c.id)));

    await page.reload({ waitUntil: "load" });
    await page.locator("#crm-sync-status", { hasText: /^Applied: / }).waitFor({ timeout: 30_000 });
    await expect(page.locator("#crm-diff tbody tr").count()).resolves.toBeGreaterThan(4);
    // What brought it back is ids: no one's name or address is kept in the browser.
    const kept = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(kept).toContain("contact-info-console:crm");
    expect(kept).not.toMatch(/Lovelace|@|HYPERLINK/);
  });

  it("undoes the write-back: first what it will restore, then the values from before, a blank included", async () => {
    const [ada] = await rowsOf("201");
    await page.getByRole("button", { name: "Undo this write-back" }).click();
    await page
      .locator("#crm-undo-preview li", { hasText: `Record 201 (Ada Lovelace), email: ${ada!.After} back to (empty)` })
      .waitFor();
    await page.getByRole("button", { name: /^Restore \d+ values? / }).click();
    await page.locator("#crm-sync-status", { hasText: /^Undo: / }).waitFor({ timeout: 60_000 });
    expect(await rowsOf("201")).toContainEqual(
      expect.objectContaining({ Property: "email", Before: ada!.After, After: "(empty)", Action: "Written" }),
    );
    expect((await fakeCall(`contacts/${TOKEN}/201`)).properties.email).toBe("");
    expect((await fakeCall(`contacts/${TOKEN}/205`)).properties.email).toBe("kate@rep.example");
    await expect(page.getByRole("button", { name: "Undo this write-back" }).isHidden()).resolves.toBe(true);
    await capture("undone");
  });

  it("says to connect again when HubSpot refuses the saved token", async () => {
    await fakeCall("revoke", { token: TOKEN });
    await page.getByRole("button", { name: "Preview changes" }).click();
    await page.locator("#crm-sync-status", { hasText: "HubSpot refused the" }).waitFor({ timeout: 60_000 });
    await expect(page.locator("#crm-sync-status").textContent()).resolves.toContain("connect it again above");
  });

  it("disconnects; forgetting the key leaves nothing of the CRM's on the page", async () => {
    await page.getByRole("button", { name: "Disconnect HubSpot" }).click();
    await page.locator("#crm-connect-status", { hasText: "HubSpot disconnected" }).waitFor({ timeout: 30_000 });
    await page.locator("#crm-connections caption", { hasText: "No CRM connected yet." }).waitFor();
    await page.getByRole("button", { name: "Forget key" }).click();
    await expect(page.locator("#crm-sync-result").isHidden()).resolves.toBe(true);
    await expect(page.locator("#crm-diff tr").count()).resolves.toBe(0);
    await expect(page.locator("#crm-sandbox").textContent()).resolves.toMatch(/^Paste your API key/);
  });
});
