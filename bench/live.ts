// npm run bench:live [-- --items 1000,10000 --rounds 1]: `live` batches through the whole
// waterfall (directory, pattern, Hunter, PDL, Apollo, Prospeo; ZeroBounce, then NeverBounce)
// against fake vendors on loopback (bench/live-vendors.ts) that answer after a seeded
// log-normal latency (p50 200 ms, p99 1.5 s) and refuse calls past their rate limits. The
// service is told the same limits (VENDOR_RATE_LIMITS), as an operator tells it its plans'.
// Per size: items/s against the ceiling the vendors allow (each vendor's rate over the calls
// per item the waterfall needed of it, one per person asked about; the lowest) and against the concurrency bound (connections
// × invocations over an item's vendor time); calls per item per vendor; refusals (429s) received;
// p50/p99 from submit to an item's result (its event on the batch's stream).
// Results in bench/results/live.json; the report (bench/README.md) is rewritten.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { type ServerKey, seedKeys, startLocalServer } from "../scripts/local-server";
import { nameValueEntries, parseWindows } from "../src/tools-api";
import { batchBody, quantile, submitAndFollow } from "./batch-stream";
import { barChart } from "./chart";
import { compareOrders } from "./live-order";
import { startFakeVendors, VENDORS, type Vendor, type Window } from "./live-vendors";
import { untilQuiet } from "./quiet";
import { DEV_TOOLING, flushDisk, machine, median, RESULTS, writeReport } from "./report";
import type { LiveResult } from "./report-live";
import { sized, writeResult } from "./smoke";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: sized(process.env.BENCH_SIZES ?? "1000,10000", "20") },
    rounds: { type: "string", default: sized(process.env.BENCH_ROUNDS ?? "1", "1") },
    // The bench's vendor plans, in VENDOR_RATE_LIMITS' syntax: Hunter's, Apollo's and NeverBounce's
    // published per-second rates (each vendor's declaration, src/enrichment/*-provider.ts), Prospeo's between Starter and Pro, and PDL at
    // 8/s (480/min, a paid plan: its published 100/min would make 10,000 items take 2 hours), so PDL
    // binds at about 8 items/s. Locally the vendors can bind only below about 20 items/s: Miniflare runs
    // one consumer invocation at a time (Cloudflare up to 250), so at most 100 items are in flight, and
    // each invocation lasts as long as its slowest item (bench/README.md).
    limits: {
      type: "string",
      default:
        process.env.BENCH_LIVE_LIMITS ??
        "hunter=15/1,pdl=8/1,apollo=16/1,prospeo=10/1,zerobounce=100/1,neverbounce=10/1",
    },
    seed: { type: "string", default: "28" },
    // The learned order against the fixed one (bench/live-order.ts): batches of this many people; 0 skips it.
    orders: { type: "string", default: sized(process.env.BENCH_ORDERS ?? "1000", "20") },
    "orders-only": { type: "boolean", default: false },
  },
});
/** An expected mistake: one plain line with the fix, and a non-zero exit. */
function usage(message: string): never {
  console.error(`bench:live: ${message}`);
  process.exit(2);
}
const SIZES = values.items.split(",").map(Number);
const ROUNDS = Number(values.rounds);
if (!SIZES.every((size) => Number.isInteger(size) && size > 0))
  usage(`--items ${values.items}: give sizes as 1000,10000`);
if (!(Number.isInteger(ROUNDS) && ROUNDS > 0)) usage(`--rounds ${values.rounds}: give a whole number of rounds, as 1`);
const LIMITS = parseLimits(values.limits);
const ORDERS = Number(values.orders);
if (!(Number.isInteger(ORDERS) && ORDERS >= 0)) usage(`--orders ${values.orders}: give a batch size, or 0 to skip`);
/** The learned order against the fixed one (issue 39), recorded for the report. */
async function recordOrders(): Promise<void> {
  const comparison = await compareOrders({
    items: ORDERS,
    seed: Number(values.seed),
    limits: LIMITS,
    limitsText: values.limits,
  });
  writeResult(
    RESULTS.liveOrder,
    `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), ...comparison }, null, 2)}\n`,
  );
}
if (values["orders-only"]) {
  if (ORDERS === 0) usage("--orders-only needs --orders N above 0");
  await recordOrders();
  writeReport();
  process.exit(0);
}
// The share of people each finder knows: varied, so later finders get the ones earlier ones miss.
const KNOWS = { hunter: 0.7, pdl: 0.5, apollo: 0.6, prospeo: 0.4 };
const LATENCY = { p50Ms: 200, p99Ms: 1500 };
// Cloudflare's bounds on the consumer: 6 connections open at once per invocation, up to 250
// invocations of a queue's consumer at once (the service's wrangler.toml sets no lower max_concurrency).
const CONNECTIONS = 6;
const INVOCATIONS = 250;
const TIMEOUT_MS = 60 * 60_000;

function parseLimits(text: string): Record<Vendor, Window[]> {
  const limits = Object.fromEntries(VENDORS.map((v) => [v, [{ limit: 1_000_000, seconds: 1 }]])) as Record<
    Vendor,
    Window[]
  >;
  for (const { entry, name: vendor, value } of nameValueEntries(text)) {
    if (!(VENDORS as readonly string[]).includes(vendor))
      usage(`--limits: unknown vendor in ${entry} (one of ${VENDORS.join(", ")})`);
    limits[vendor as Vendor] =
      parseWindows(value) ?? usage(`--limits: ${value} is not LIMIT/SECONDS, as in hunter=15/1+500/60`);
  }
  return limits;
}

const perSecond = (windows: readonly Window[]) => Math.min(...windows.map((w) => w.limit / w.seconds));

const vendors = await startFakeVendors({ seed: Number(values.seed), latency: LATENCY, limits: LIMITS, knows: KNOWS });
let key: ServerKey | undefined;
const server = await startLocalServer({
  devTooling: DEV_TOOLING,
  prepare: async (state) => {
    [key] = await seedKeys(state, [{ customerId: "cus_bench_live", environment: "live" }]);
  },
  vars: {
    ...vendors.vars,
    VENDOR_RATE_LIMITS: values.limits,
    MAX_BATCH_ITEMS: String(Math.max(...SIZES, 10)),
    MAX_BODY_BYTES: String(64 * 1024 * 1024),
  },
}).catch(async (error) => {
  await vendors.close();
  throw error;
});

const loadAtStart = Number(loadavg()[0]?.toFixed(1));
const rounds: LiveResult[][] = [];
try {
  let tag = 0;
  // A warm-up batch: the isolate, the key, the limiter, the governors and the consumer started.
  await submitAndFollow(server.url, key!, batchBody(tag++, 10), { timeoutMs: TIMEOUT_MS });
  for (let round = 1; round <= ROUNDS; round++) {
    const measured: LiveResult[] = [];
    for (const size of SIZES) {
      flushDisk();
      await untilQuiet([server]);
      vendors.reset();
      const batch = await submitAndFollow(server.url, key!, batchBody(tag++, size), { timeoutMs: TIMEOUT_MS });
      measured.push(summarize(size, batch.completeMs, batch.itemMs, vendors.counts()));
      const r = measured[measured.length - 1]!;
      console.log(
        `round ${round}: ${size} items in ${batch.completeMs} ms: ${r.itemsPerSecond.toFixed(1)} items/s, ${(r.itemsPerSecond / r.vendorCeiling).toFixed(2)} of the vendors' ceiling (${r.vendorCeiling.toFixed(1)}, ${r.boundBy}), ${r.refused} refusals, ${r.repeats} repeated calls, item p50 ${r.itemP50Ms} ms p99 ${r.itemP99Ms} ms`,
      );
    }
    rounds.push(measured);
  }
} finally {
  await Promise.all([server.stop(), vendors.close()]);
}

function summarize(
  size: number,
  completeMs: number,
  itemMs: number[],
  counts: ReturnType<typeof vendors.counts>,
): LiveResult {
  const calls = Object.fromEntries(VENDORS.map((v) => [v, counts.vendors[v].answered / size])) as Record<
    Vendor,
    number
  >;
  // The ceiling counts the calls the waterfall needs (one per person a vendor was asked about), not the
  // repeats a retry made: repeats spend the vendor's budget, and counting them would raise the ratio.
  const needed = Object.fromEntries(VENDORS.map((v) => [v, counts.vendors[v].distinct / size])) as Record<
    Vendor,
    number
  >;
  const ceilings = VENDORS.filter((v) => needed[v] > 0).map((v) => ({
    vendor: v,
    itemsPerSecond: perSecond(LIMITS[v]) / needed[v],
  }));
  const lowest = ceilings.reduce((a, b) => (b.itemsPerSecond < a.itemsPerSecond ? b : a));
  // An item's vendor time: its calls are made one after another (the waterfall, then the verifiers).
  const itemVendorSeconds = VENDORS.reduce((sum, v) => sum + counts.vendors[v].latencyMs, 0) / size / 1000;
  return {
    items: size,
    completeMs,
    itemsPerSecond: (size / completeMs) * 1000,
    vendorCeiling: lowest.itemsPerSecond,
    boundBy: lowest.vendor,
    concurrencyBound: (CONNECTIONS * INVOCATIONS) / itemVendorSeconds,
    localConcurrencyBound: counts.peakInFlight / itemVendorSeconds,
    peakInFlight: counts.peakInFlight,
    itemVendorMs: Math.round(itemVendorSeconds * 1000),
    callsPerItem: calls,
    neededPerItem: needed,
    repeats: VENDORS.reduce((sum, v) => sum + counts.vendors[v].answered - counts.vendors[v].distinct, 0),
    refusedByVendor: Object.fromEntries(VENDORS.map((v) => [v, counts.vendors[v].refused])) as Record<Vendor, number>,
    refused: VENDORS.reduce((sum, v) => sum + counts.vendors[v].refused, 0),
    itemP50Ms: quantile(itemMs, 0.5),
    itemP99Ms: quantile(itemMs, 0.99),
    itemsSeen: itemMs.length,
  };
}

// Each size from its median round by items/s.
const results = SIZES.map((size) => {
  const runs = rounds.flatMap((measured) => measured.filter((r) => r.items === size));
  const rates = runs.map((r) => r.itemsPerSecond);
  return { ...runs[rates.indexOf(median(rates))]!, everyRound: rates };
});
writeResult(
  RESULTS.live,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: machine(),
      loadAverage: { atStart: loadAtStart, atEnd: Number(loadavg()[0]?.toFixed(1)) },
      rounds: ROUNDS,
      limits: values.limits,
      knows: KNOWS,
      latency: LATENCY,
      connections: CONNECTIONS,
      invocations: INVOCATIONS,
      results,
    },
    null,
    2,
  )}\n`,
);
writeResult(
  "bench/results/live.svg",
  barChart(
    "live items/s against what the vendors allow and the local concurrency",
    results.flatMap((r) => [
      { label: `${r.items.toLocaleString("en")} items: measured`, value: r.itemsPerSecond },
      { label: `${r.items.toLocaleString("en")}: vendors' ceiling`, value: r.vendorCeiling, note: r.boundBy },
      {
        label: `${r.items.toLocaleString("en")}: local concurrency`,
        value: r.localConcurrencyBound,
        note: `${r.peakInFlight} calls at once`,
      },
    ]),
    "items/s",
  ),
);
if (ORDERS > 0) await recordOrders();
writeReport();
