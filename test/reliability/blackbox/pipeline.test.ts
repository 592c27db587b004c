import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../../scripts/local-server";
import { type BatchClient, batchClient, expectExactCounts } from "../../blackbox-helpers";
import { type FakeVendor, startFakeVendor } from "./fake-vendor";

// Black-box, against `wrangler dev` with its real local queue: load, faults and
// what the logs contain. Bounded: every wait below has a deadline.
const ITEM_MAX_ATTEMPTS = 3;

let server: LocalServer;
let vendor: FakeVendor;
let testApi: BatchClient;
let liveApi: BatchClient;
// Every status the server answered, to find any 5xx.
const statuses: number[] = [];
// The keys must never reach the logs either.
const secrets: string[] = [];

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
  const [testKey, liveKey] = keys as [ServerKey, ServerKey];
  testApi = batchClient(server, testKey, (response) => statuses.push(response.status));
  liveApi = batchClient(server, liveKey, (response) => statuses.push(response.status));
  secrets.push(testKey.key, liveKey.key);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await vendor?.close();
});

describe("under load", () => {
  it("takes 200 concurrent submits of mixed sizes, with pollers, to completion with exact counts and no 5xx", async () => {
    const sizes = [1, 5, 20, 50, 100];
    const started = Date.now();
    const batchIds = await Promise.all(
      Array.from({ length: 200 }, (_, b) =>
        testApi.submit({
          items: Array.from({ length: sizes[b % sizes.length]! }, (_, i) => ({
            firstName: `Load${b}`,
            lastName: `Person${i}`,
            companyDomain: "load.example",
          })),
        }),
      ),
    );
    // Readers load the server while the queue works (not a wait: they stop when the batches are done).
    let polling = true;
    const pollers = Array.from({ length: 10 }, async (_, p) => {
      while (polling) {
        await testApi.call(`/v2/test/person/contact-info/${batchIds[(p * 17) % batchIds.length]}?limit=10`);
        await testApi.call("/v2/test/me/rate-limits");
      }
    });
    const batches = await testApi.untilCompleted(batchIds, 240_000);
    polling = false;
    await Promise.all(pollers);
    batches.forEach(expectExactCounts);
    const items = batches.reduce((sum, batch) => sum + batch.totalItems, 0);
    console.log(
      `load: ${batchIds.length} batches, ${items} items completed in ${Date.now() - started} ms; ${statuses.length} requests`,
    );
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
    const [batch] = await testApi.untilCompleted([await testApi.submit({ items })], 120_000);
    expectExactCounts(batch!);
    expect(batch!.failedItems).toBe(30);
    expect(
      batch!.items
        .filter((item) => item.input.companyDomain === "fail.test")
        .every((item) => item.error?.code === "processing_failed"),
    ).toBe(true);
    expect(
      batch!.items
        .filter((item) => item.input.companyDomain === "flaky.test")
        .every((item) => item.outcome === "found"),
    ).toBe(true);
  }, 150_000);

  it("loses nothing, and retries a bounded number of times, when a vendor times out or fails at random", async () => {
    const items = Array.from({ length: 100 }, (_, i) => ({
      firstName: `Chaos${i}`,
      lastName: "Vendor",
      companyDomain: "chaos.example",
    }));
    const [batch] = await liveApi.untilCompleted([await liveApi.submit({ items })], 120_000);
    expectExactCounts(batch!);
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
      {
        firstName: "Zephyrine",
        lastName: "Quackenbush",
        companyDomain: "privacy.example",
        email: "zephyrine.q@privacy.example",
      },
      {
        fullName: "Bartholomew Xylophone",
        companyName: "Secretive Ltd",
        linkedinUrl: "https://www.linkedin.com/in/bartholomew-xylophone",
      },
    ];
    const testBatch = await testApi.submit({ items: people });
    const liveBatch = await liveApi.submit({ items: people });
    await testApi.untilCompleted([testBatch], 60_000);
    await liveApi.untilCompleted([liveBatch], 60_000);
    const logs = server.output();
    // The logs do tell about these batches, by id only.
    for (const batchId of [testBatch, liveBatch])
      expect(logs).toContain(`{"event":"batch_completed","batchId":"${batchId}"`);
    for (const secret of [
      "Zephyrine",
      "Quackenbush",
      "zephyrine.q@privacy.example",
      "Bartholomew",
      "Xylophone",
      "bartholomew-xylophone",
      ...secrets,
    ]) {
      expect(logs.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    // Sandbox phones are derived from the input, so they are personal-looking data too.
    expect(logs).not.toMatch(/\+1\d{3}55501\d{2}/);
  }, 150_000);
});
