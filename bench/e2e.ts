// npm run bench:e2e: one `test` batch of 1,000, 10,000 and 100,000 items in
// turn, time to 202 and to `completed`, against the local queue's own ceilings
// (a no-op consumer, of one-item messages and of the service's grouped ones)
// measured in the same run. This machine's speed drifts by a
// fifth within minutes, so the ceiling and the batches up to 10,000 items are
// measured in ROUNDS interleaved rounds (each batch against the ceiling of its
// round) and the median round is reported; larger batches once, in the last round.
import { parseArgs } from "node:util";
import { type BatchReceipt, createClient } from "../client/src/index";
import { type ServerKey, seedKeys, startLocalServer } from "../scripts/local-server";
import { lineChart } from "./chart";
import { runMode } from "./e2e-modes";
import { DEV_TOOLING, type E2eResult, flushDisk, machine, median, RESULTS, writeReport } from "./report";
import { sized, writeResult } from "./smoke";

// `--mode fairness` and `--mode cold` are bench/e2e-modes.ts; the default, `sizes`, is this file.
const { values: args } = parseArgs({
  options: {
    mode: { type: "string", default: "sizes" },
    items: { type: "string", default: "10000" },
    batches: { type: "string", default: "3" },
    rounds: { type: "string", default: sized(process.env.BENCH_ROUNDS ?? "5", "1") },
  },
});
// An expected mistake gets one plain line with the fix, before anything starts.
if (!["sizes", "fairness", "cold"].includes(args.mode)) {
  console.error(`bench:e2e: --mode ${args.mode} is not one of sizes (the default), fairness or cold`);
  process.exit(2);
}
if (args.mode === "fairness" || args.mode === "cold") {
  await runMode(args.mode, { items: Number(args.items), batches: Number(args.batches), rounds: Number(args.rounds) });
  writeReport();
  process.exit(0);
}

const SIZES = sized(process.env.BENCH_SIZES ?? "1000,10000,100000", "100")
  .split(",")
  .map(Number);
const MAX_BATCH_ITEMS = Math.max(...SIZES);
const CEILING_ITEMS = sized(10_000, 200);
const ROUNDS = Number(args.rounds);
// Sizes above this are measured once, in the last round.
const REPEATED_UP_TO = 10_000;
const TIMEOUT_MS = 15 * 60_000;
// Completion is found by polling, but timed by the system measured: the batch's completedAt (when
// its last item was recorded), the ceiling's time of its last count. So the polling step adds
// nothing to the times, and polls are kept few, as each one costs the thread being measured.
const POLL_MS = 50;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not done within ${TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

type Ceiling = { items: number; ms: number; itemsPerSecond: number };
/** One item per message (the reference), or the service's messages of ITEMS_PER_MESSAGE (bench/queue-ceiling/). */
type CeilingShape = "item" | "grouped";

/** The no-op consumer's pace: CEILING_ITEMS items produced in messages of `shape`, until the last is counted. */
async function measureCeiling(url: string, shape: CeilingShape): Promise<Ceiling> {
  const counted = async () => (await (await fetch(`${url}/count`)).json()) as { count: number; countedAt: number };
  const { count: before } = await counted();
  // Epoch milliseconds, as the Worker's clock (the same machine's) stamps the last count.
  const started = Date.now();
  const produced = await fetch(`${url}/produce?n=${CEILING_ITEMS}&shape=${shape}`, { method: "POST" });
  if (produced.status !== 202) throw new Error(`ceiling producer answered ${produced.status}`);
  let countedAt = 0;
  await until(async () => {
    const now = await counted();
    countedAt = now.countedAt;
    return now.count >= before + CEILING_ITEMS;
  }, "ceiling");
  const ms = countedAt - started;
  return { items: CEILING_ITEMS, ms, itemsPerSecond: (CEILING_ITEMS / ms) * 1000 };
}

/** Submits one batch of `size` distinct people; times to the 202 and to `completed`. */
async function submitAndComplete(url: string, key: ServerKey, size: number) {
  const body = JSON.stringify({
    items: Array.from({ length: size }, (_, i) => ({
      firstName: `E2e${i}`,
      lastName: "Person",
      companyDomain: "e2e.example",
    })),
  });
  // The submit measured is a plain request with its body made beforehand, so the time to 202 holds
  // no client-side work; the polls go through the typed client.
  const headers = { "x-api-key": key.key, "content-type": "application/json" };
  const client = createClient({ baseUrl: url, apiKey: key.key, environment: key.environment });
  // Epoch milliseconds, as the batch's completedAt is (the Worker's clock is this machine's).
  const started = Date.now();
  const response = await fetch(`${url}/v2/test/person/contact-info`, { method: "POST", headers, body });
  const acceptMs = Date.now() - started;
  if (response.status !== 202)
    throw new Error(`submit of ${size} answered ${response.status}: ${await response.text()}`);
  const { batchId } = (await response.json()) as BatchReceipt;
  let completedAt = "";
  await until(async () => {
    const page = await client.getBatch(batchId, { limit: 1 });
    completedAt = page.completedAt ?? "";
    return page.status === "completed";
  }, `batch of ${size}`);
  return { acceptMs, completeMs: Date.parse(completedAt) - started };
}

type Measured = E2eResult & { ratio: number; groupedRatio: number };
type Ceilings = Record<CeilingShape, Ceiling>;

async function measure(): Promise<{
  ceilings: Ceilings;
  results: (E2eResult & { ratios: number[]; groupedRatios: number[] })[];
}> {
  let key: ServerKey | undefined;
  const server = await startLocalServer({
    devTooling: DEV_TOOLING,
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
  const ceilingServer = await startLocalServer({
    config: "bench/queue-ceiling/wrangler.toml",
    devTooling: DEV_TOOLING,
  }).catch(async (error) => {
    await server.stop();
    throw error;
  });
  try {
    // One small batch first, so the first size measured does not also pay for starting the isolate,
    // the key lookup, the limiter, the account and the queue consumer; likewise the ceiling.
    await submitAndComplete(server.url, key!, 10);
    await measureCeiling(ceilingServer.url, "item");
    await measureCeiling(ceilingServer.url, "grouped");
    const rounds: { ceilings: Ceilings; measured: Measured[] }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const ceilings = {
        item: await measureCeiling(ceilingServer.url, "item"),
        grouped: await measureCeiling(ceilingServer.url, "grouped"),
      };
      const ceiling = ceilings.item;
      console.log(
        `round ${round}: queue ceiling (no-op consumer) ${ceiling.itemsPerSecond.toFixed(0)} items/s in one-item messages, ${ceilings.grouped.itemsPerSecond.toFixed(0)} in grouped ones`,
      );
      const measured: Measured[] = [];
      for (const size of SIZES.filter((size) => size <= REPEATED_UP_TO || round === ROUNDS)) {
        const { acceptMs, completeMs } = await submitAndComplete(server.url, key!, size);
        flushDisk();
        const itemsPerSecond = (size / completeMs) * 1000;
        measured.push({
          items: size,
          acceptMs,
          completeMs,
          itemsPerSecond,
          msPerItem: completeMs / size,
          ratio: itemsPerSecond / ceiling.itemsPerSecond,
          groupedRatio: itemsPerSecond / ceilings.grouped.itemsPerSecond,
        });
        console.log(
          `round ${round}: ${String(size).padStart(7)} items: accepted in ${acceptMs.toFixed(0)} ms, completed in ${completeMs.toFixed(0)} ms, ${(completeMs / size).toFixed(3)} ms/item, ${(itemsPerSecond / ceiling.itemsPerSecond).toFixed(2)} of the ceiling, ${(itemsPerSecond / ceilings.grouped.itemsPerSecond).toFixed(2)} of the grouped one`,
        );
      }
      rounds.push({ ceilings, measured });
    }
    // Each size from its median round (by ratio to that round's ceiling), with every round's ratio.
    const results = SIZES.map((size) => {
      const runs = rounds.flatMap(({ measured }) => measured.filter((m) => m.items === size));
      const ratios = runs.map((m) => m.ratio);
      const { ratio: _, groupedRatio: __, ...middle } = runs[ratios.indexOf(median(ratios))]!;
      return { ...middle, ratios, groupedRatios: runs.map((m) => m.groupedRatio) };
    });
    const medianCeiling = (shape: CeilingShape) => {
      const ceilings = rounds.map((round) => round.ceilings[shape]);
      const perSecond = ceilings.map((c) => c.itemsPerSecond);
      return ceilings[perSecond.indexOf(median(perSecond))]!;
    };
    return { ceilings: { item: medianCeiling("item"), grouped: medianCeiling("grouped") }, results };
  } finally {
    await Promise.all([server.stop(), ceilingServer.stop()]);
  }
}

const { ceilings, results } = await measure();
const ceiling = ceilings.item;
for (const r of results) {
  console.log(
    `${r.items} items: ${median(r.ratios).toFixed(2)} of the queue ceiling (rounds ${r.ratios.map((x) => x.toFixed(2)).join(", ")}), ${median(r.groupedRatios).toFixed(2)} of the grouped one`,
  );
}
writeResult(
  RESULTS.e2e,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: machine(),
      rounds: ROUNDS,
      ceiling,
      groupedCeiling: ceilings.grouped,
      results,
      maxBatchItems: MAX_BATCH_ITEMS,
    },
    null,
    2,
  ),
);
writeResult(
  "bench/results/e2e.svg",
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
      {
        name: "the same, in the service's messages of 10 items",
        color: "#8e44ad",
        points: results.map((r) => ({ x: r.items, y: (r.items / ceilings.grouped.itemsPerSecond) * 1000 })),
      },
    ],
    "items in the batch",
    "milliseconds",
  ),
);
writeReport();
