import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatchPage } from "../../../src/batch/status";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../local-server";
import { type FakeVendor, startFakeVendor } from "./fake-vendor";

// Black-box, against `wrangler dev` with its real local queue: load, faults and
// what the logs contain. Bounded: every wait below has a deadline.
const ITEM_MAX_ATTEMPTS = 3;

let server: LocalServer;
let vendor: FakeVendor;
let testKey: ServerKey;
let liveKey: ServerKey;

beforeAll(async () => {
  vendor = await startFakeVendor({ timeoutRate: 0.2, errorRate: 0.2, delayMs: 1_000 });
  let keys: ServerKey[] = [];
  server = await startLocalServer({
    prepare: async (state) => {
      keys = await seedKeys(state, [
        { customerId: "cus_reliability", environment: "test" },
        { customerId: "cus_reliability", environment: "live" },
      ]);
    },
    vars: {
      RETRY_BASE_DELAY_SECONDS: "1",
      RETRY_MAX_DELAY_SECONDS: "1",
      ITEM_MAX_ATTEMPTS: String(ITEM_MAX_ATTEMPTS),
      ENRICHMENT_PROVIDERS: "directory,pattern,hunter",
      PROVIDER_TIMEOUT_MS: "300",
      DOH_URL: `${vendor.url}/dns-query`,
      HUNTER_API_URL: vendor.url,
      HUNTER_API_KEY: "fake",
    },
  });
  [testKey, liveKey] = keys as [ServerKey, ServerKey];
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await vendor?.close();
});

const statuses: number[] = [];

async function call(path: string, key: ServerKey, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${server.url}${path}`, { ...init, headers: { ...init.headers, "x-api-key": key.key } });
  statuses.push(response.status);
  return response;
}

async function submit(key: ServerKey, items: unknown[]): Promise<string> {
  const response = await call(`/v2/${key.environment}/person/contact-info`, key, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ items }),
  });
  expect(response.status).toBe(202);
  return (await response.json<{ batchId: string }>()).batchId;
}

async function readAll(key: ServerKey, batchId: string): Promise<BatchPage> {
  const first = await (await call(`/v2/${key.environment}/person/contact-info/${batchId}`, key)).json<BatchPage>();
  let page = first;
  while (page.nextCursor) {
    page = await (await call(`/v2/${key.environment}/person/contact-info/${batchId}?cursor=${page.nextCursor}`, key)).json<BatchPage>();
    first.items.push(...page.items);
  }
  return first;
}

async function untilCompleted(key: ServerKey, batchIds: string[], timeoutMs: number): Promise<BatchPage[]> {
  const deadline = Date.now() + timeoutMs;
  const open = new Set(batchIds);
  while (open.size > 0) {
    if (Date.now() > deadline) throw new Error(`${open.size} of ${batchIds.length} batches still open after ${timeoutMs} ms`);
    for (const batchId of [...open]) {
      const page = await (await call(`/v2/${key.environment}/person/contact-info/${batchId}?limit=1`, key)).json<BatchPage>();
      if (page.status === "completed") open.delete(batchId);
    }
    if (open.size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return Promise.all(batchIds.map((batchId) => readAll(key, batchId)));
}

function expectExact(batch: BatchPage) {
  expect(batch.items).toHaveLength(batch.totalItems);
  expect(batch.completedItems + batch.failedItems).toBe(batch.totalItems);
  expect(batch.items.filter((item) => item.status === "completed")).toHaveLength(batch.completedItems);
  expect(batch.items.filter((item) => item.status === "failed")).toHaveLength(batch.failedItems);
}

describe("under load", () => {
  it("takes 200 concurrent submits of mixed sizes, with pollers, to completion with exact counts and no 5xx", async () => {
    const sizes = [1, 5, 20, 50, 100];
    const started = Date.now();
    const batchIds = await Promise.all(
      Array.from({ length: 200 }, (_, b) =>
        submit(
          testKey,
          Array.from({ length: sizes[b % sizes.length]! }, (_, i) => ({ firstName: `Load${b}`, lastName: `Person${i}`, companyDomain: "load.example" })),
        ),
      ),
    );
    // Pollers read while the queue works; untilCompleted polls too.
    let polling = true;
    const pollers = Array.from({ length: 10 }, async (_, p) => {
      while (polling) {
        await call(`/v2/test/person/contact-info/${batchIds[(p * 17) % batchIds.length]}?limit=10`, testKey);
        await call("/v2/test/me/rate-limits", testKey);
      }
    });
    const batches = await untilCompleted(testKey, batchIds, 240_000);
    polling = false;
    await Promise.all(pollers);
    batches.forEach(expectExact);
    const items = batches.reduce((sum, batch) => sum + batch.totalItems, 0);
    console.log(`load: ${batchIds.length} batches, ${items} items completed in ${Date.now() - started} ms; ${statuses.length} requests`);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  }, 300_000);
});

describe("under faults", () => {
  it("loses nothing when 30% of sandbox items are flaky or failing", async () => {
    const items = Array.from({ length: 300 }, (_, i) => ({
      firstName: `Fault${i}`,
      lastName: "Sandbox",
      companyDomain: i % 10 < 2 ? "flaky.test" : i % 10 < 3 ? "fail.test" : "ok.example",
    }));
    const [batch] = await untilCompleted(testKey, [await submit(testKey, items)], 120_000);
    expectExact(batch!);
    expect(batch!.failedItems).toBe(30);
    expect(batch!.items.filter((item) => item.input.companyDomain === "fail.test").every((item) => item.error?.code === "processing_failed")).toBe(true);
    expect(batch!.items.filter((item) => item.input.companyDomain === "flaky.test").every((item) => item.outcome === "found")).toBe(true);
  }, 150_000);

  it("loses nothing, and retries a bounded number of times, when a vendor times out or fails at random", async () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ firstName: `Chaos${i}`, lastName: "Vendor", companyDomain: "chaos.example" }));
    const [batch] = await untilCompleted(liveKey, [await submit(liveKey, items)], 120_000);
    expectExact(batch!);
    // The directory always answers, so no item fails; each completes with the vendor's answer or the pattern guess.
    expect(batch!.failedItems).toBe(0);
    expect(vendor.callsPerPerson.size).toBeGreaterThan(50);
    for (const calls of vendor.callsPerPerson.values()) expect(calls).toBeLessThanOrEqual(ITEM_MAX_ATTEMPTS);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  }, 150_000);
});

describe("the logs", () => {
  it("hold no personal data of the items processed", async () => {
    const people = [
      { firstName: "Zephyrine", lastName: "Quackenbush", companyDomain: "privacy.example", email: "zephyrine.q@privacy.example" },
      { fullName: "Bartholomew Xylophone", companyName: "Secretive Ltd", linkedinUrl: "https://www.linkedin.com/in/bartholomew-xylophone" },
    ];
    await untilCompleted(testKey, [await submit(testKey, people)], 60_000);
    await untilCompleted(liveKey, [await submit(liveKey, people)], 60_000);
    const logs = server.output();
    expect(logs).toContain("batch_completed");
    for (const secret of ["Zephyrine", "Quackenbush", "zephyrine.q@privacy.example", "Bartholomew", "Xylophone", "bartholomew-xylophone", testKey.key, liveKey.key]) {
      expect(logs.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    // Sandbox phones are derived from the input, so they are personal-looking data too.
    expect(logs).not.toMatch(/\+1\d{3}55501\d{2}/);
  }, 150_000);
});
