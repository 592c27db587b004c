// npm run bench:e2e: one `test` batch of 1,000, 10,000 and 100,000 items in
// turn, time to 202 and to `completed`, against the local queue's own ceiling
// (a no-op consumer) measured in the same run.
import { mkdirSync, writeFileSync } from "node:fs";
import { type ServerKey, seedKeys, startLocalServer } from "../../test/local-server";
import { lineChart } from "./chart";
import { type E2eResult, machine, RESULTS, writeReport } from "./report";

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const MAX_BATCH_ITEMS = Math.max(...SIZES);
const CEILING_ITEMS = 10_000;
const TIMEOUT_MS = 15 * 60_000;
// Completion is seen by polling: often enough that the step is small next to the times measured
// (a 1,000-item batch at the ceiling takes under 100 ms).
const POLL_MS = 20;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not done within ${TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function measureCeiling(): Promise<{ items: number; ms: number; itemsPerSecond: number }> {
  const server = await startLocalServer({ config: "bench/queue-ceiling/wrangler.toml" });
  try {
    const started = performance.now();
    const produced = await fetch(`${server.url}/produce?n=${CEILING_ITEMS}`, { method: "POST" });
    if (produced.status !== 202) throw new Error(`ceiling producer answered ${produced.status}`);
    await until(async () => ((await (await fetch(`${server.url}/count`)).json()) as { count: number }).count >= CEILING_ITEMS, "ceiling");
    const ms = performance.now() - started;
    return { items: CEILING_ITEMS, ms, itemsPerSecond: (CEILING_ITEMS / ms) * 1000 };
  } finally {
    await server.stop();
  }
}

/** Submits one batch of `size` distinct people; times to the 202 and to `completed`. */
async function submitAndComplete(url: string, headers: Record<string, string>, size: number) {
  const body = JSON.stringify({
    items: Array.from({ length: size }, (_, i) => ({ firstName: `E2e${i}`, lastName: "Person", companyDomain: "e2e.example" })),
  });
  const started = performance.now();
  const response = await fetch(`${url}/v2/test/person/contact-info`, { method: "POST", headers, body });
  const acceptMs = performance.now() - started;
  if (response.status !== 202) throw new Error(`submit of ${size} answered ${response.status}: ${await response.text()}`);
  const { batchId } = (await response.json()) as { batchId: string };
  await until(async () => {
    const page = (await (await fetch(`${url}/v2/test/person/contact-info/${batchId}?limit=1`, { headers })).json()) as { status: string };
    return page.status === "completed";
  }, `batch of ${size}`);
  return { acceptMs, completeMs: performance.now() - started };
}

async function measureBatches(): Promise<E2eResult[]> {
  let key: ServerKey | undefined;
  const server = await startLocalServer({
    prepare: async (state) => {
      [key] = await seedKeys(state, [{ customerId: "cus_bench", environment: "test" }]);
    },
    vars: {
      MAX_BATCH_ITEMS: String(MAX_BATCH_ITEMS),
      MAX_BODY_BYTES: String(64 * 1024 * 1024),
      RETRY_BASE_DELAY_SECONDS: "1",
      RETRY_MAX_DELAY_SECONDS: "2",
    },
  });
  try {
    const headers = { "x-api-key": key!.key, "content-type": "application/json" };
    // One small batch first, so the first size measured does not also pay for starting the isolate,
    // the key lookup, the limiter, the account and the queue consumer.
    await submitAndComplete(server.url, headers, 10);
    const results: E2eResult[] = [];
    for (const size of SIZES) {
      const { acceptMs, completeMs } = await submitAndComplete(server.url, headers, size);
      const result = { items: size, acceptMs, completeMs, itemsPerSecond: (size / completeMs) * 1000, msPerItem: completeMs / size };
      results.push(result);
      console.log(
        `${String(size).padStart(7)} items: accepted in ${acceptMs.toFixed(0)} ms, completed in ${completeMs.toFixed(0)} ms, ${result.itemsPerSecond.toFixed(0)} items/s, ${result.msPerItem.toFixed(3)} ms/item`,
      );
    }
    return results;
  } finally {
    await server.stop();
  }
}

const ceiling = await measureCeiling();
console.log(
  `queue ceiling (no-op consumer): ${ceiling.items} messages in ${ceiling.ms.toFixed(0)} ms, ${ceiling.itemsPerSecond.toFixed(0)}/s`,
);
const results = await measureBatches();
for (const r of results) console.log(`${r.items} items: ${(r.itemsPerSecond / ceiling.itemsPerSecond).toFixed(2)} of the queue ceiling`);
mkdirSync("benchmarks", { recursive: true });
writeFileSync(
  RESULTS.e2e,
  JSON.stringify({ date: new Date().toISOString(), machine: machine(), ceiling, results, maxBatchItems: MAX_BATCH_ITEMS }, null, 2),
);
writeFileSync(
  "benchmarks/e2e.svg",
  lineChart(
    "Batch size vs time (ms)",
    [
      { name: "time to 202", color: "#4f7cac", points: results.map((r) => ({ x: r.items, y: r.acceptMs })) },
      { name: "time to completed", color: "#c0392b", points: results.map((r) => ({ x: r.items, y: r.completeMs })) },
      {
        name: "queue ceiling (no-op consumer), same size",
        color: "#27ae60",
        points: results.map((r) => ({ x: r.items, y: (r.items / ceiling.itemsPerSecond) * 1000 })),
      },
    ],
    "items in the batch",
    "milliseconds",
  ),
);
writeReport();
