import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_KEYS } from "../../scripts/dev-keys";
import type { LocalServer } from "../../scripts/local-server";
import { type LoopbackFake, serveOnLoopback } from "../fakes/loopback";
import { webhookReceiver } from "../fakes/webhook-receiver";
import { until } from "../until";
import { desktopPage, launchChromium, seededServer } from "./chromium";

// Issue 49 item 6, the console's Webhooks tab: add an endpoint pointing at a receiver on 127.0.0.1 (a
// test key may), see its secret once, send a test event and see it delivered, redeliver it, disable,
// delete; at 1280 and 390 px with nothing wider than the screen. Screenshots in docs/screenshots/.
const TEST_KEY = DEV_KEYS.find((key) => key.environment === "test")!.key;

describe("the /app console's Webhooks tab (issue 49)", () => {
  let server: LocalServer;
  let receiver: LoopbackFake;
  let browser: Browser;
  let page: Page;
  const path = "/console-hooks/";

  const received = async () =>
    ((await (await fetch(`${receiver.url}/__deliveries${path}`)).json()) as unknown[]).length;
  const overflow = () => page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
  /** Every button in the page's tables whole in the viewport's width (none cut off at the right). */
  const clipped = () =>
    page.evaluate(
      `[...document.querySelectorAll("#panel-hooks button")].filter((b) => b.offsetParent && b.getBoundingClientRect().right > document.documentElement.clientWidth).length`,
    );

  beforeAll(async () => {
    receiver = await serveOnLoopback(webhookReceiver);
    server = await seededServer();
    browser = await launchChromium();
    page = await desktopPage(browser, server.url);
    page.on("dialog", (dialog) => void dialog.accept());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  it("adds an endpoint and shows its secret once, with how to keep it", async () => {
    await page.goto(`${server.url}/app#hooks`, { waitUntil: "load" });
    await page.getByRole("heading", { name: "Webhooks", exact: true }).waitFor();
    await page.fill("#api-key", TEST_KEY);
    await page.press("#api-key", "Enter");
    await page.locator("#hooks-endpoints caption", { hasText: "No endpoint yet" }).waitFor({ timeout: 30_000 });
    await page.fill("#hooks-url", `${receiver.url}${path}`);
    await page.fill("#hooks-description", "The console's receiver");
    await page.getByLabel("A test event (Send test)").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = page.locator("#hooks-secret-value");
    await secret.waitFor({ timeout: 30_000 });
    await expect(secret.textContent()).resolves.toMatch(/^whsec_/);
    await page.locator("#hooks-secret", { hasText: "never shown again" }).waitFor();
    await page.getByRole("cell", { name: `${receiver.url}${path}` }).waitFor();
    await page.getByRole("cell", { name: "Enabled", exact: true }).waitFor();
    // The secret is nowhere in the page's storage, and gone once the key is used again.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toMatch(/whsec_/);
  }, 60_000);

  it("sends a test event, shows it delivered, and redelivers it", async () => {
    await page.getByRole("button", { name: "Send test" }).click();
    await page.locator("#hooks-status", { hasText: "A test event is on its way" }).waitFor({ timeout: 30_000 });
    await until(received, { what: "the test event at the receiver", done: (n) => n >= 1, timeoutMs: 30_000 });
    await until(
      async () => {
        await page.locator("#hooks-refresh").click();
        return (await page.locator("#hooks-deliveries td", { hasText: "1 attempt, answered 204" }).count()) === 1;
      },
      { what: "the test event listed as delivered", timeoutMs: 30_000, intervalMs: 500 },
    );
    await page.locator("#hooks-deliveries td", { hasText: "Delivered" }).first().waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await overflow()).toBe(0);
    expect(await clipped()).toBe(0);
    await page.screenshot({ path: "docs/screenshots/webhooks-1280.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflow()).toBe(0);
    expect(await clipped()).toBe(0);
    await page.screenshot({ path: "docs/screenshots/webhooks-390.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Redeliver" }).click();
    await page.locator("#hooks-status", { hasText: "Sent again" }).waitFor({ timeout: 30_000 });
    await until(received, { what: "the redelivery at the receiver", done: (n) => n >= 2, timeoutMs: 30_000 });
    await until(
      async () => {
        await page.locator("#hooks-refresh").click();
        return (await page.locator("#hooks-deliveries td", { hasText: "2 attempts, last answered 204" }).count()) === 1;
      },
      { what: "the redelivery listed as a second attempt", timeoutMs: 30_000, intervalMs: 500 },
    );
  }, 90_000);

  it("rotates the secret (the new one shown once), disables the endpoint, then deletes it after a confirm", async () => {
    const first = await page.locator("#hooks-secret-value").textContent();
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.locator("#hooks-status", { hasText: "Secret rotated" }).waitFor({ timeout: 30_000 });
    const rotated = await page.locator("#hooks-secret-value").textContent();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(first);
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("cell", { name: /^Disabled/ }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Enable" }).waitFor();
    await page.getByRole("button", { name: "Delete" }).click();
    await page.locator("#hooks-status", { hasText: "deleted" }).waitFor({ timeout: 30_000 });
    await page.locator("#hooks-endpoints caption", { hasText: "No endpoint yet" }).waitFor({ timeout: 30_000 });
  }, 60_000);
});
