import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_KEYS } from "../../scripts/dev-keys";
import { type LocalServer, startLocalServer } from "../local-server";

// Debian's Chromium; .ci/run installs it. Never a downloaded browser.
const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = "artifacts/docs-page.png";
const TEST_KEY = DEV_KEYS.find((key) => key.environment === "test")!.key;

describe("the /docs page in a real browser", () => {
  let server: LocalServer;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (as .ci/run does)`);
    // The README's local keys, as `npm run dev` seeds them: the page's samples use the test one.
    server = await startLocalServer({
      prepare: async (state) => {
        execFileSync("npx", ["tsx", "scripts/keys.ts", "seed-dev", "--persist-to", state], { stdio: "ignore" });
      },
    });
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
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on("request", (request) => requested.push(request.url()));
    const response = await page.goto(`${server.url}/docs`, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the three operations, and is captured in a screenshot", async () => {
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
  });

  it("shows a submit sample that, pasted into a shell, gets a 202 with the key sent once", async () => {
    const samples = page.locator("code.language-curl", { hasText: "--request POST" }).filter({ hasText: "/person/contact-info" });
    await samples.first().waitFor({ state: "attached", timeout: 30_000 });
    const sample = (await samples.first().textContent()) ?? "";
    expect(sample.startsWith(`curl ${server.url}/v2/test/person/contact-info`)).toBe(true);
    expect(sample.match(/x-api-key/gi)).toEqual(["x-api-key"]);
    expect(sample).toContain(`x-api-key: ${TEST_KEY}`);

    const answer = execFileSync("sh", ["-c", `${sample.trimEnd()} --silent --show-error --include`], { encoding: "utf8", timeout: 30_000 });
    expect(answer).toMatch(/^HTTP\/1\.1 202 /);
    expect(answer).toMatch(/^location: \/v2\/test\/person\/contact-info\/[0-9a-f-]{36}\r$/im);
  });

  it("loads everything from its own origin: no fonts, agent or client from other hosts", async () => {
    await page.waitForLoadState("networkidle");
    expect(requested.length).toBeGreaterThanOrEqual(3);
    expect(requested.filter((url) => new URL(url).origin !== server.url)).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${server.url}/docs/scalar.js`, `${server.url}/openapi.json`]));
  });
});
