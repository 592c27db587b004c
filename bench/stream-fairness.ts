// npm run bench:streams: whether one customer's event-stream replays slow another's requests.
// Customer A opens as many `items=true` replay streams as it may (MAX_STREAMS_PER_CUSTOMER,
// over completed batches of ITEMS items, MAX_STREAMS_PER_BATCH each), reopening each as it
// ends; meanwhile customer B reads its batch's status REQUESTS times, one after another.
// The same reads with A idle, in the same round, are the floor: B's median and p95 loaded over
// alone is the ratio (the target: ≤ 2). ROUNDS interleaved rounds; the median round is reported,
// in bench/results/stream-fairness.json, with notes in bench/NOTES.md.
import { loadavg } from "node:os";
import { type ServerKey, seedKeys, startLocalServer } from "../scripts/local-server";
import {
  ITEM_EVENTS_PER_STEP,
  MAX_STREAMS_PER_BATCH,
  MAX_STREAMS_PER_CUSTOMER,
  REPLAY_STEP_PAUSE_MS,
} from "../src/tools-api";
import { batchBody, submitBatch } from "./batch-stream";
import { latencies, medianRatios, roundLine } from "./fairness";
import { untilQuiet } from "./quiet";
import { machine } from "./report";
import { sized, writeResult } from "./smoke";

const ROUNDS = sized(Number(process.env.BENCH_ROUNDS ?? 3), 1);
const ITEMS = sized(Number(process.env.BENCH_STREAM_ITEMS ?? 10_000), 200);
const REQUESTS = sized(Number(process.env.BENCH_REQUESTS ?? 300), 20);
// Customers replaying at once, each at its cap: 1 is the target's case; more shows what the
// per-customer cap leaves open (several customers together), and that the measure can fail.
const REPLAYING_CUSTOMERS = Number(process.env.BENCH_REPLAYING_CUSTOMERS ?? 1);
// The whole run is bounded: past this the server's process group is stopped and the run fails.
const RUN_LIMIT_MS = 20 * 60_000;

const loadAtStart = Number(loadavg()[0]?.toFixed(1));
let a: ServerKey[] = [];
let b: ServerKey | undefined;
const server = await startLocalServer({
  devTooling: false,
  prepare: async (state) => {
    [b, ...a] = await seedKeys(state, [
      { customerId: "cus_bench_streams_b", environment: "test" },
      ...Array.from({ length: REPLAYING_CUSTOMERS }, (_, i) => ({
        customerId: `cus_bench_streams_a${i}`,
        environment: "test" as const,
      })),
    ]);
  },
});
const limit = setTimeout(() => {
  console.error(`bench: over ${RUN_LIMIT_MS / 60_000} min; stopping`);
  void server.stop().finally(() => process.exit(1));
}, RUN_LIMIT_MS);

const base = (key: ServerKey) => `${server.url}/v2/${key.environment}/person/contact-info`;

async function completed(key: ServerKey, body: string): Promise<string> {
  const { batchId } = await submitBatch(server.url, key, body);
  for (;;) {
    const status = (await (
      await fetch(`${base(key)}/${batchId}?limit=1`, { headers: { "x-api-key": key.key } })
    ).json()) as {
      status: string;
    };
    if (status.status === "completed") return batchId;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** B's status reads, one after another: each one's milliseconds. */
async function readsOfB(key: ServerKey, batchId: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const response = await fetch(`${base(key)}/${batchId}?limit=10`, { headers: { "x-api-key": key.key } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`B's read answered ${response.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

/** A's replay streams, each reopened as it ends, until `stop`; resolves once each has sent an item event. */
async function replays(key: ServerKey, batchIds: string[], stop: AbortSignal) {
  let events = 0;
  const started: Promise<void>[] = [];
  const running: Promise<void>[] = [];
  for (let i = 0; i < MAX_STREAMS_PER_CUSTOMER; i++) {
    const batchId = batchIds[Math.floor(i / MAX_STREAMS_PER_BATCH)]!;
    let firstItem!: () => void;
    started.push(new Promise((resolve) => (firstItem = resolve)));
    running.push(
      (async () => {
        while (!stop.aborted) {
          const response = await fetch(`${base(key)}/${batchId}/events?items=true`, {
            headers: { "x-api-key": key.key },
            signal: stop,
          });
          // The last round's streams, gone unnoticed, hold their places until they stall (LEASE_EXPIRES_MS).
          if (response.status === 429) {
            await response.body?.cancel();
            await new Promise((resolve) => setTimeout(resolve, 1000));
            continue;
          }
          if (response.status !== 200)
            throw new Error(`A's stream answered ${response.status}: ${await response.text()}`);
          for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
            const items = new TextDecoder().decode(chunk).split("event: item").length - 1;
            events += items;
            if (items > 0) firstItem();
          }
        }
      })().catch((error: unknown) => {
        if (!stop.aborted) throw error;
      }),
    );
  }
  await Promise.all(started);
  return { events: () => events, done: Promise.all(running) };
}

try {
  if (a.length === 0 || !b) throw new Error("no keys seeded");
  const batchCount = Math.ceil(MAX_STREAMS_PER_CUSTOMER / MAX_STREAMS_PER_BATCH);
  const aBatches: string[][] = [];
  for (const [n, key] of a.entries()) {
    const batches: string[] = [];
    for (let i = 0; i < batchCount; i++) batches.push(await completed(key, batchBody(n * batchCount + i, ITEMS)));
    aBatches.push(batches);
  }
  const bBatch = await completed(b, batchBody(100, 10));
  const rounds: { alone: number[]; loaded: number[]; eventsPerSecond: number; refusedOneMore: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    await untilQuiet([server]);
    const alone = await readsOfB(b, bBatch);
    await untilQuiet([server]);
    const stop = new AbortController();
    const all = await Promise.all(a.map((key, n) => replays(key, aBatches[n]!, stop.signal)));
    const streams = {
      events: () => all.reduce((sum, s) => sum + s.events(), 0),
      done: Promise.all(all.map((s) => s.done)),
    };
    // One more than A may hold: refused, so the load below is the most one customer can put on.
    const oneMore = await fetch(`${base(a[0]!)}/${aBatches[0]!.at(-1)}/events?items=true`, {
      headers: { "x-api-key": a[0]!.key },
    });
    await oneMore.body?.cancel();
    const before = streams.events();
    const startedAt = performance.now();
    const loaded = await readsOfB(b, bBatch);
    const eventsPerSecond = ((streams.events() - before) * 1000) / (performance.now() - startedAt);
    stop.abort();
    await streams.done;
    rounds.push({ alone, loaded, eventsPerSecond, refusedOneMore: oneMore.status });
    console.log(
      `round ${round}: ${roundLine({ alone, loaded }, `with ${REPLAYING_CUSTOMERS} × ${MAX_STREAMS_PER_CUSTOMER} replays`)}; A's replays ${eventsPerSecond.toFixed(0)} item events/s; A's ${MAX_STREAMS_PER_CUSTOMER + 1}th stream answered ${oneMore.status}`,
    );
  }
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: { atStart: loadAtStart, atEnd: Number(loadavg()[0]?.toFixed(1)) },
    rounds: ROUNDS,
    replayingCustomers: REPLAYING_CUSTOMERS,
    streamsPerCustomer: MAX_STREAMS_PER_CUSTOMER,
    itemsPerBatch: ITEMS,
    pacing: { itemEventsPerStep: ITEM_EVENTS_PER_STEP, pauseMs: REPLAY_STEP_PAUSE_MS },
    requestsOfB: REQUESTS,
    ratio: medianRatios(rounds),
    everyRound: rounds.map((r) => ({
      aloneMs: latencies(r.alone),
      loadedMs: latencies(r.loaded),
      replayEventsPerSecond: Math.round(r.eventsPerSecond),
      oneMoreStream: r.refusedOneMore,
    })),
  };
  writeResult(
    `bench/results/stream-fairness${REPLAYING_CUSTOMERS === 1 ? "" : `-${REPLAYING_CUSTOMERS}`}.json`,
    `${JSON.stringify(report, null, 2)}\n`,
  );
  console.log(JSON.stringify(report.ratio));
} finally {
  clearTimeout(limit);
  await server.stop();
}
