// What the browser tests share: Debian's Chromium (.ci/run installs it; never a downloaded browser),
// a `wrangler dev` seeded with the README's local keys, and a page that reaches no other origin.
import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { devKeyWrites } from "../../scripts/dev-keys";
import { withKv } from "../../scripts/kv-store";
import { type LocalServer, startLocalServer } from "../../scripts/local-server";

const CHROMIUM = "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (as .ci/run does)`);
  return chromium.launch({
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
}

/**
 * The local keys `npm run dev` seeds (the README's and the pages' samples use them), written as `npm run keys
 * -- seed-dev` writes them, from this process: a tool run of its own cost 9 CPU-seconds a server.
 */
function seedDevKeys(state: string): Promise<void> {
  return withKv({ target: "--local", persistTo: state }, "API_KEYS", async (kv) => kv.putAll(await devKeyWrites()));
}

/** A server of the test's own, with the local keys `npm run dev` seeds (seedDevKeys). */
export function seededServer(vars?: Record<string, string>): Promise<LocalServer> {
  return startLocalServer({ ...(vars ? { vars } : {}), prepare: seedDevKeys });
}

/** Refuses every request for another origin, so a page that reaches out fails its test. */
export async function onlyOrigin(page: Page, origin: string): Promise<void> {
  await page.route(
    (url) => url.origin !== origin,
    (route) => route.abort("blockedbyclient"),
  );
}

/** A desktop-sized page (1280 × 900, downloads accepted) in a context of its own, kept to `origin` (onlyOrigin). */
export async function desktopPage(browser: Browser, origin: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await onlyOrigin(page, origin);
  return page;
}
