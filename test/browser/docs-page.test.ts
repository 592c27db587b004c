import { existsSync, mkdirSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "../local-server";

// Debian's Chromium; .ci/run installs it. Never a downloaded browser.
const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = "artifacts/docs-page.png";

describe("the /docs page in a real browser", () => {
  let server: LocalServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (as .ci/run does)`);
    server = await startLocalServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("loads, shows the three operations, and is captured in a screenshot", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const failed: string[] = [];
    page.on("requestfailed", (request) => failed.push(request.url()));
    const response = await page.goto(`${server.url}/docs`, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    for (const summary of [
      "Submit a batch of people to enrich",
      "Read a batch: counts and per-item contact data",
      "Your rate limits and usage, per endpoint type",
    ]) {
      await expect(page.getByText(summary).first().waitFor({ state: "attached", timeout: 30_000 })).resolves.toBeUndefined();
    }
    mkdirSync("artifacts", { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    expect(existsSync(SCREENSHOT)).toBe(true);
    // Everything the page needs comes from this origin.
    expect(failed.filter((url) => url.startsWith(server.url))).toEqual([]);
  }, 90_000);
});
