import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_KEYS } from "../../scripts/dev-keys";
import type { LocalServer } from "../../scripts/local-server";
import { type LoopbackFake, serveOnLoopback } from "../fakes/loopback";
import { discover, type Metadata, register } from "../mcp/oauth-client";
import { desktopPage, launchChromium, seededServer } from "./chromium";

// Issue 48 item 3: the consent page in Chromium, as a person sees it when claude.ai sends them there. It
// works without script, under its own CSP (no violation reported), with its __Host- cookie on loopback;
// a wrong key shows the page again, Allow ends at the client's callback with a code and iss. Screenshots
// in docs/screenshots/.
const TEST_KEY = DEV_KEYS.find((key) => key.environment === "test")?.key ?? "";

describe("the consent page in a browser (issue 48)", () => {
  let server: LocalServer;
  let browser: Browser;
  let page: Page;
  let metadata: Metadata;
  let resource: string;
  // The assistant's callback, on loopback (RFC 8252): the page's own routes keep every other origin out.
  let assistant: LoopbackFake;
  let callback: string;
  const violations: string[] = [];

  beforeAll(async () => {
    server = await seededServer();
    ({ metadata, resource } = await discover(server.url));
    assistant = await serveOnLoopback(async () => new Response("back at the assistant"));
    callback = `${assistant.url}/callback`;
    browser = await launchChromium();
    page = await desktopPage(browser, server.url);
    // The callback is the one other origin the page may reach (routes registered last are tried first).
    await page.route(
      (url) => url.origin === assistant.url,
      (route) => route.continue(),
    );
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await assistant?.close();
  });

  it("shows the assistant, the key field, the scopes and the allowance; a wrong key brings the page back; Allow returns a code", async () => {
    const clientId = await register(metadata, "Claude", callback);
    const url = new URL(metadata.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: callback,
      state: "browser-state",
      scope: "read spend",
      resource,
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    }).toString();
    await page.goto(url.toString());
    await expect(page.locator("h1").textContent()).resolves.toBe("Let Claude use your contact-info account?");
    await expect(page.locator('input[name="scope"][value="read"]').isChecked()).resolves.toBe(true);
    await expect(page.locator('input[name="scope"][value="erase"]').isChecked()).resolves.toBe(false);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: "docs/screenshots/consent-1280.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "docs/screenshots/consent-390.png", fullPage: true });
    expect(await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);

    await page.fill('input[name="api_key"]', "ck_test_00000000000000000000000000000000");
    await page.click('button[value="allow"]');
    await expect(page.locator(".message").textContent()).resolves.toContain("That API key is unknown or revoked.");

    await page.fill('input[name="api_key"]', TEST_KEY);
    await page.click('button[value="allow"]');
    await page.waitForURL((url) => url.href.startsWith(callback));
    const back = new URL(page.url());
    expect(back.searchParams.get("code")).toBeTruthy();
    expect(back.searchParams.get("state")).toBe("browser-state");
    expect(back.searchParams.get("iss")).toBe(server.url);
    expect(violations).toEqual([]);
  });
});
