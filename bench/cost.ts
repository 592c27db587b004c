// npm run bench:cost [-- --items 1000,10000 --environments test,live]: what a batch costs the platform,
// counted. The service runs as it is, behind the meters of bench/cost/ (its Worker entry wraps the
// real one and its Durable Object classes; nothing in src/ counts), with the service's wrangler.toml
// pointed at that entry. One batch per environment and size, one at a time; `live` against the fake
// vendors of bench:live at limits high enough never to bind and a short latency (the units, not the
// time, are measured here). A batch's tally runs from its submit until 3 s after its `batch_completed`
// log line (its account report and alarms included), read from the server's output so that nothing
// polls the API; CPU is workerd's (process-cpu.ts) over the same span, less its idle rate measured
// just before (V8's profiler was tried: it gave the isolate's waits to JavaScript frames, bench/NOTES.md). Per 1,000 items, beside
// the floor (report-cost.ts) and priced; results in bench/results/cost.json, the table in bench/README.md.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { type ServerKey, seedKeys, startLocalServer } from "../scripts/local-server";
import { batchBody, submitBatch } from "./batch-stream";
import { workerdCpuMs } from "./cost/process-cpu";
import { startFakeVendors, VENDORS } from "./live-vendors";
import { untilQuiet } from "./quiet";
import { flushDisk, machine, writeReport } from "./report";
import { COST_RESULTS, type CostRun, costTable, costTargets, dollarsOf, floorOf, unitsOf } from "./report-cost";
import { sized, writeResult } from "./smoke";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: sized("1000,10000", "50") },
    environments: { type: "string", default: "test,live" },
  },
});
const SIZES = values.items.split(",").map(Number);
// test first: see the warm-up below.
const ENVIRONMENTS = values.environments.split(",").sort((a, b) => (a === "test" ? -1 : b === "test" ? 1 : 0));
if (!SIZES.every((n) => Number.isInteger(n) && n > 0)) {
  console.error(`bench:cost: --items ${values.items}: give sizes as 1000,10000`);
  process.exit(2);
}
if (!ENVIRONMENTS.every((e) => e === "test" || e === "live")) {
  console.error(`bench:cost: --environments ${values.environments}: give test, live or test,live`);
  process.exit(2);
}
const CONFIG = ".wrangler-cost.toml";
const TIMEOUT_MS = 20 * 60_000;
const TAIL_MS = 3000;
const LIMITS = VENDORS.map((v) => `${v}=100000/1`).join(",");

writeFileSync(
  CONFIG,
  readFileSync("wrangler.toml", "utf8").replace(/^main = "src\/index\.ts"$/m, 'main = "bench/cost/worker.ts"'),
);
const vendors = await startFakeVendors({
  seed: 40,
  latency: { p50Ms: 20, p99Ms: 100 },
  limits: Object.fromEntries(VENDORS.map((v) => [v, [{ limit: 100_000, seconds: 1 }]])) as never,
  knows: { hunter: 0.7, pdl: 0.5, apollo: 0.6, prospeo: 0.4 },
});
const keys = new Map<string, ServerKey>();
const server = await startLocalServer({
  devTooling: false,
  config: CONFIG,
  prepare: async (state) => {
    for (const key of await seedKeys(state, [
      { customerId: "cus_bench_cost_test", environment: "test" },
      { customerId: "cus_bench_cost_live", environment: "live" },
    ]))
      keys.set(key.environment, key);
  },
  vars: {
    ...vendors.vars,
    VENDOR_RATE_LIMITS: LIMITS,
    MAX_BATCH_ITEMS: String(Math.max(...SIZES, 10)),
    MAX_BODY_BYTES: String(64 * 1024 * 1024),
  },
}).catch(async (error) => {
  await vendors.close();
  rmSync(CONFIG, { force: true });
  throw error;
});

const tally = async () => (await (await fetch(`${server.url}/__cost`)).json()) as CostRun["tally"];
const loadAtStart = Number(loadavg()[0]?.toFixed(1));

async function completed(batchId: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!server.output().includes(`"batch_completed","batchId":"${batchId}"`)) {
    if (Date.now() > deadline) throw new Error(`batch ${batchId} not completed within ${TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const runs: CostRun[] = [];
try {
  const group = server.processGroup()!;
  let tag = 0;
  for (const environment of ENVIRONMENTS as ("test" | "live")[]) {
    // Warm-up: the isolate, the key, the limiter, the account, the governors, the consumer. Each
    // environment's just before its own batches: once a live batch has run, V8's profile no longer
    // tells the isolate's waits apart (next to none of the time reads "(idle)"), so test comes first.
    await completed((await submitBatch(server.url, keys.get(environment)!, batchBody(tag++, 10))).batchId);
    for (const items of SIZES) {
      flushDisk();
      await untilQuiet([server]);
      await tally();
      // workerd's own CPU while idle, over TAIL_MS: taken off the batch's span.
      const idleFrom = workerdCpuMs(group);
      await new Promise((resolve) => setTimeout(resolve, TAIL_MS));
      const idleRate = (workerdCpuMs(group) - idleFrom) / TAIL_MS;
      const cpuFrom = workerdCpuMs(group);
      const key = keys.get(environment)!;
      const submitted = await submitBatch(server.url, key, batchBody(tag++, items));
      await completed(submitted.batchId);
      const completeMs = Date.now() - submitted.started;
      await new Promise((resolve) => setTimeout(resolve, TAIL_MS));
      const counted = await tally();
      const spanMs = Date.now() - submitted.started;
      const workerdMs = workerdCpuMs(group) - cpuFrom;
      const cpu = { workerdMs, idleMs: idleRate * spanMs, cpuMs: Math.max(0, workerdMs - idleRate * spanMs) };
      const status = await fetch(`${server.url}/v2/${environment}/person/contact-info/${submitted.batchId}?limit=1`, {
        headers: { "x-api-key": key.key },
      });
      const { creditsCharged = 0 } = (await status.json()) as { creditsCharged?: number };
      const units = unitsOf(counted, items, cpu.cpuMs);
      const floor = floorOf(environment, items, units);
      runs.push({
        environment,
        items,
        completeMs,
        creditsCharged,
        tally: counted,
        cpu,
        units,
        floor,
        dollars: dollarsOf(units),
        floorDollars: dollarsOf(floor),
      });
      console.log(
        `${environment} ${items} items: completed in ${completeMs} ms; workerd CPU ${workerdMs.toFixed(0)} ms, less ${cpu.idleMs.toFixed(0)} ms of its idle rate: ${cpu.cpuMs.toFixed(0)} ms`,
      );
    }
  }
} finally {
  await Promise.all([server.stop(), vendors.close()]);
  rmSync(CONFIG, { force: true });
}

for (const line of [...costTable(runs), "", ...costTargets(runs)]) console.log(line);
const notes = [
  `Load average ${loadAtStart} at the start, ${Number(loadavg()[0]?.toFixed(1))} at the end.`,
  "Counted by meters around the real Worker and objects in local workerd (bench/cost/meter.ts): Worker invocations (fetch, and queue per invocation), queue messages sent and operations (a write per message sent, a read per delivery, a delete per delivery not retried; one per 64 KB), Durable Object requests (every RPC call from outside the object, and alarms), SQLite rows read and written from each cursor's rowsRead and rowsWritten (what Cloudflare bills) plus the synchronous KV API and setAlarm (a row written each), KV operations per key.",
  "The person index's rows (the account's, for erasure) and the erasure's bookkeeping (the database's high-water mark, the cache purge list) are counted apart from rows written, as the targets count them.",
  "CPU: the workerd processes' user and system time (/proc) from the submit to 3 s after the batch completed, less their idle rate over the 3 s before the submit: the Worker's isolate with its objects, and the runtime's own work for them (SQLite, the local queue and KV, the proxy). Priced as Workers CPU, an upper bound: Cloudflare bills CPU for the Worker's invocations, and duration, not CPU, for objects. V8's profiler gave the isolate's waits to JavaScript frames here (bench/NOTES.md), so it is not used.",
  "DO active time: per object, the union of the spans with a request in flight (a lower bound: work after an answer, as the batch's first sends after create, is not in it), billed as 128 MB.",
  `The floor: per item one row written at creation and one at its result (and one row read); per group of 100 items (one consumer invocation of a batch's items today) one queue message (3 operations), one consumer invocation and one batch-object call; per batch the submit, one creation call and one report (a call and a row); in live, one result-cache read per item and the cache writes ours made.`,
  'live: the fake vendors of bench:live at 100,000 calls/s (never binding) and a latency of p50 20 ms, p99 100 ms; the vendor governor is on, and its leases are DO requests (the column "governor apart" leaves them out).',
  "Prices: Cloudflare's, past the Workers Paid plan's included usage (bench/README.md, \"Prices\").",
];
writeResult(
  COST_RESULTS,
  `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), notes, runs }, null, 2)}\n`,
);
writeReport();
