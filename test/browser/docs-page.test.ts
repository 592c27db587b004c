import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import type { Browser, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_KEYS } from "../../scripts/dev-keys";
import type { LocalServer } from "../../scripts/local-server";
import { estimateExample } from "../../src/openapi/examples";
import { until } from "../blackbox-helpers";
import { launchChromium, onlyOrigin, seededServer } from "./chromium";

const SCREENSHOT = "artifacts/docs-page.png";
const TEST_KEY = DEV_KEYS.find((key) => key.environment === "test")!.key;

describe("the /docs page in a real browser", () => {
  let server: LocalServer;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  // Requests the page has sent and Chromium has not yet answered or failed.
  const pending = new Set<Request>();
  // What the page's Content-Security-Policy refused, as Chromium reports it on the console.
  const violations: string[] = [];
  let headers: Record<string, string> = {};

  beforeAll(async () => {
    // The README's local keys, as `npm run dev` seeds them: the page's samples use the test one.
    server = await seededServer();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on("request", (request) => {
      requested.push(request.url());
      pending.add(request);
    });
    page.on("requestfinished", (request) => pending.delete(request));
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // Also the events, for a refusal Chromium does not print.
    await page.addInitScript(`
      window.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (event) => window.cspViolations.push(
        event.violatedDirective + " " + event.blockedURI + " " + new URL(event.sourceFile || "about:blank").pathname));
    `);
    page.on("requestfailed", (request) => pending.delete(request));
    // Nothing leaves the machine: a request for another host is recorded above, then
    // refused here, so it fails the last test instead of waiting on a network there is none of.
    await onlyOrigin(page, server.url);
    const response = await page.goto(`${server.url}/docs`, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    headers = (await response?.allHeaders()) ?? {};
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the operations, and is captured in a screenshot", async () => {
    for (const summary of [
      "Submit a batch of people to enrich",
      "Estimate a batch before submitting it",
      "Read a batch: counts and per-item contact data",
      "Your rate limits and usage, per endpoint type",
    ]) {
      await expect(
        page.getByText(summary).first().waitFor({ state: "attached", timeout: 30_000 }),
      ).resolves.toBeUndefined();
    }
    mkdirSync("artifacts", { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    expect(existsSync(SCREENSHOT)).toBe(true);
  });

  it("shows a submit sample that, pasted into a shell, gets a 202 with the key sent once", async () => {
    const samples = page
      .locator("code.language-curl", { hasText: "--request POST" })
      .filter({ hasText: "/person/contact-info", hasNotText: "/estimate" });
    await samples.first().waitFor({ state: "attached", timeout: 30_000 });
    const sample = (await samples.first().textContent()) ?? "";
    expect(sample.startsWith(`curl ${server.url}/v2/test/person/contact-info`)).toBe(true);
    expect(sample.match(/x-api-key/gi)).toEqual(["x-api-key"]);
    expect(sample).toContain(`x-api-key: ${TEST_KEY}`);

    const answer = execFileSync("sh", ["-c", `${sample.trimEnd()} --silent --show-error --include`], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 202 /);
    expect(answer).toMatch(/^location: \/v2\/test\/person\/contact-info\/[0-9a-f-]{36}\r$/im);
  });

  it("shows an estimate sample that, pasted into a shell, answers 200 with the documented estimate", async () => {
    const samples = page
      .locator("code.language-curl", { hasText: "--request POST" })
      .filter({ hasText: "/person/contact-info/estimate" });
    await samples.first().waitFor({ state: "attached", timeout: 30_000 });
    const sample = (await samples.first().textContent()) ?? "";
    expect(sample.startsWith(`curl ${server.url}/v2/test/person/contact-info/estimate`)).toBe(true);
    const answer = execFileSync("sh", ["-c", `${sample.trimEnd()} --silent --show-error --include`], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).not.toMatch(/^location:/im);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual(estimateExample);
  });

  it("loads everything from its own origin: no fonts, agent or client from other hosts", async () => {
    // Not `waitForLoadState("networkidle")`: Playwright discourages it for tests, and in one CI
    // run it did not come within 30 s. The page has loaded when it shows the operations it read
    // from /openapi.json and every request it sent has been answered; a stuck one is named.
    await page.getByText("Submit a batch of people to enrich").first().waitFor({ state: "attached", timeout: 30_000 });
    await until(() => [...pending].map((request) => request.url()), {
      what: "every request of the page answered",
      done: (urls) => urls.length === 0,
      timeoutMs: 30_000,
    });
    expect(requested.length).toBeGreaterThanOrEqual(3);
    expect(requested.filter((url) => new URL(url).origin !== server.url)).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${server.url}/docs/scalar.js`, `${server.url}/openapi.json`]));
  });

  it("is served with /app's security headers, and renders with nothing refused by its policy", async () => {
    const policy = headers["content-security-policy"] ?? "";
    for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      expect(policy).toContain(directive);
    }
    // Its own script and the one inline start-up script (by hash); never any inline script or eval.
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("no-referrer");
    const script = await fetch(`${server.url}/docs/scalar.js`);
    expect(script.headers.get("x-content-type-options")).toBe("nosniff");

    // Rendered: the operations are shown, then nothing was refused.
    await page.getByText("Submit a batch of people to enrich").first().waitFor({ state: "attached", timeout: 30_000 });
    await until(() => [...pending].map((request) => request.url()), {
      what: "every request of the page answered",
      done: (urls) => urls.length === 0,
      timeoutMs: 30_000,
    });
    // One report is expected: zod, bundled in Scalar's script, probes once whether eval is allowed
    // (`new Function("")` in a try) and, refused, validates without it. Nothing else is refused.
    const EVAL_PROBE = "script-src eval /docs/scalar.js";
    const reported = (await page.evaluate("window.cspViolations")) as string[];
    expect(reported.filter((report) => report !== EVAL_PROBE)).toEqual([]);
    expect(reported.filter((report) => report === EVAL_PROBE).length).toBeLessThanOrEqual(1);
    expect(violations.filter((text) => !/Refused to evaluate a string as JavaScript/.test(text))).toEqual([]);
  });
});
