import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../scripts/local-server";
import { batchClient, expectExactCounts } from "../blackbox-helpers";

// The benchmarks' server (bench/serve.ts: the Worker as `wrangler dev` runs
// it, without its DevTools session and trace collector) must be the same service:
// its vars, its seeded keys, its queue and Durable Objects, and its logs on the output.
let server: LocalServer;
let key: ServerKey;

beforeAll(async () => {
  let keys: ServerKey[] = [];
  server = await startLocalServer({
    devTooling: false,
    prepare: async (state) => {
      keys = await seedKeys(state, [{ customerId: "cus_bench_server", environment: "test" }]);
    },
    vars: { MAX_BATCH_ITEMS: "20", RETRY_BASE_DELAY_SECONDS: "1", RETRY_MAX_DELAY_SECONDS: "2" },
  });
  [key] = keys as [ServerKey];
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const people = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    firstName: `Bench${i}`,
    lastName: "Server",
    companyDomain: "bench.example",
  }));

describe("the benchmarks' server", () => {
  it("processes a batch end to end with the seeded key, and prints the Worker's logs", async () => {
    const client = batchClient(server, key);
    const batchId = await client.submit({ items: people(20) });
    const [batch] = await client.untilCompleted([batchId], 60_000);
    expectExactCounts(batch!);
    expect(batch!.completedItems).toBe(20);
    expect(server.output()).toContain(`"event":"batch_created","batchId":"${batchId}"`);
  });

  it("applies the vars it is given", async () => {
    const response = await batchClient(server, key).call(`/v2/test/person/contact-info`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ items: people(21) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "too_many_items" });
  });
});

describe("the benchmarks' floors Worker (bench/floors/)", () => {
  // It bundles modules from src/, so it needs the service's build-time constants: without them it
  // started, answered nothing, and every floor read 0 requests/s.
  it("starts and answers each floor's request", async () => {
    const floors = await startLocalServer({ config: "bench/floors/wrangler.toml", devTooling: false });
    try {
      const body = JSON.stringify({ items: people(3) });
      for (const path of ["/submit", "/submit-and-send"]) {
        const response = await fetch(`${floors.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          signal: AbortSignal.timeout(20_000),
        });
        expect(response.status, path).toBeLessThan(300);
        await response.body?.cancel();
      }
      const read = await fetch(`${floors.url}/read?bytes=100`, { signal: AbortSignal.timeout(20_000) });
      expect(read.status).toBe(200);
      expect((await read.text()).length).toBeGreaterThanOrEqual(100);
    } finally {
      await floors.stop();
    }
  }, 120_000);
});
