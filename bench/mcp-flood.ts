// npm run bench:mcp-flood: whether one key flooding /mcp with initializes slows another customer.
// Customer A sends FLOOD initializes (CONCURRENCY at a time) from one key with the deployment's
// default limits, and abandons every session it gets, as the attack of issue 46 did; meanwhile
// customer B reads its batch's status, one read after another. B's reads with A idle, in the same
// round, are the floor: B's median and p95 during the flood over alone is the ratio. Each round
// floods from a key of its own (a fresh mcp_protocol window). The runtime's memory (the workerd
// processes' resident set) is read before the floods, after them, and once every session A kept
// open has closed idle (MCP_SESSION_IDLE_SECONDS, short here). ROUNDS interleaved rounds; the
// median round is reported, in bench/results/mcp-flood.json, with notes in bench/NOTES.md.
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { withKv } from "../scripts/kv-store";
import { type ServerKey, startLocalServer } from "../scripts/local-server";
import { apiKeyWrites, ENDPOINT_TYPES, issueApiKey } from "../src/tools-api";
import { batchBody, submitBatch } from "./batch-stream";
import { latencies, medianRatios, roundLine } from "./fairness";
import { untilQuiet } from "./quiet";
import { machine } from "./report";
import { sized, writeResult } from "./smoke";

// A smoke (BENCH_SMOKE=1): one round of 40 initializes, 20 reads alone, nothing written.
const ROUNDS = sized(Number(process.env.BENCH_ROUNDS ?? 3), 1);
const FLOOD = sized(Number(process.env.BENCH_FLOOD ?? 3000), 40);
const CONCURRENCY = sized(Number(process.env.BENCH_CONCURRENCY ?? 64), 8);
const IDLE_SECONDS = sized(Number(process.env.BENCH_IDLE_SECONDS ?? 20), 2);
const ALONE_READS = sized(300, 20);
// BENCH_UNLIMITED=1: A's key without an mcp_protocol limit (the session cap alone holds), to compare.
const UNLIMITED = process.env.BENCH_UNLIMITED === "1";
const RUN_LIMIT_MS = 20 * 60_000;
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
});

const loadAtStart = Number(loadavg()[0]?.toFixed(1));
const floodKeys: ServerKey[] = [];
let b: ServerKey | undefined;
const server = await startLocalServer({
  devTooling: false,
  vars: { MCP_SESSION_IDLE_SECONDS: String(IDLE_SECONDS) },
  prepare: async (state) => {
    const writes: ReturnType<typeof apiKeyWrites> = [];
    for (let i = 0; i <= ROUNDS; i++) {
      const spec = { customerId: i === 0 ? "cus_bench_mcp_b" : `cus_bench_mcp_a${i}`, environment: "test" as const };
      const { key, hash, record } = await issueApiKey(spec);
      // B, and A when UNLIMITED, get limits the benchmark never reaches; A otherwise the deployment's.
      if (i === 0 || UNLIMITED)
        record.rateLimits = Object.fromEntries(
          ENDPOINT_TYPES.map((type) => [type, { limit: 10_000_000, windowSeconds: 60 }]),
        );
      writes.push(...apiKeyWrites(hash, record));
      const serverKey = { key, keyId: record.keyId, ...spec };
      if (i === 0) b = serverKey;
      else floodKeys.push(serverKey);
    }
    await withKv({ target: "--local", persistTo: state }, "API_KEYS", (kv) => kv.putAll(writes));
  },
});
const limit = setTimeout(() => {
  console.error(`bench: over ${RUN_LIMIT_MS / 60_000} min; stopping`);
  void server.stop().finally(() => process.exit(1));
}, RUN_LIMIT_MS);

/** The resident memory of the server's workerd processes, in MiB (from /proc). */
function workerdRssMiB(): number {
  const group = server.processGroup();
  let kib = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (comm !== "workerd" || Number(fields[2]) !== group) continue;
      kib += Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
    } catch {
      // Gone meanwhile.
    }
  }
  return Math.round(kib / 1024);
}

async function readOfB(key: ServerKey, batchId: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.url}/v2/test/person/contact-info/${batchId}?limit=10`, {
    headers: { "x-api-key": key.key },
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`B's read answered ${response.status}`);
  return performance.now() - started;
}

/** A's initializes, CONCURRENCY at a time, bodies read to the end, sessions then abandoned: the answers' statuses. */
async function flood(key: ServerKey): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < FLOOD) {
      next++;
      const response = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "x-api-key": key.key,
        },
        body: INITIALIZE,
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

try {
  if (!b) throw new Error("no keys seeded");
  const { batchId } = await submitBatch(server.url, b, batchBody(100, 10));
  for (let i = 0; i < 20; i++) await readOfB(b, batchId);
  const rounds: { alone: number[]; loaded: number[]; statuses: Record<string, number>; floodMs: number }[] = [];
  await untilQuiet([server]);
  const rssAtStart = workerdRssMiB();
  for (let round = 1; round <= ROUNDS; round++) {
    await untilQuiet([server]);
    const alone: number[] = [];
    for (let i = 0; i < ALONE_READS; i++) alone.push(await readOfB(b, batchId));
    await untilQuiet([server]);
    const startedAt = performance.now();
    let flooding = true;
    const flooded = flood(floodKeys[round - 1]!).finally(() => (flooding = false));
    const loaded: number[] = [];
    while (flooding || loaded.length < 20) loaded.push(await readOfB(b, batchId));
    const statuses = Object.fromEntries([...(await flooded).entries()].sort());
    const floodMs = performance.now() - startedAt;
    rounds.push({ alone, loaded, statuses, floodMs });
    console.log(
      `round ${round}: ${roundLine({ alone, loaded }, `during ${FLOOD} initializes (${(floodMs / 1000).toFixed(1)} s, ${JSON.stringify(statuses)})`)}; ${loaded.length} reads`,
    );
  }
  const rssAfterFloods = workerdRssMiB();
  // Every session A kept (at most MCP_MAX_SESSIONS_PER_KEY per key) closes once idle, and says so.
  const kept = () => (server.output().match(/"event":"mcp_session_closed"[^}]*"reason":"idle"/g) ?? []).length;
  await untilQuiet([server], { quietMs: (IDLE_SECONDS + 10) * 1000, timeoutMs: 10 * 60_000 });
  const closedIdle = kept();
  const rssAfterIdle = workerdRssMiB();
  console.log(
    `memory (workerd RSS): ${rssAtStart} MiB before, ${rssAfterFloods} MiB after the floods, ${rssAfterIdle} MiB once ${closedIdle} idle sessions closed`,
  );
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: { atStart: loadAtStart, atEnd: Number(loadavg()[0]?.toFixed(1)) },
    rounds: ROUNDS,
    floodInitializes: FLOOD,
    concurrency: CONCURRENCY,
    unlimited: UNLIMITED,
    ratio: medianRatios(rounds),
    memoryMiB: { atStart: rssAtStart, afterFloods: rssAfterFloods, afterIdle: rssAfterIdle, closedIdle },
    everyRound: rounds.map((r) => ({
      aloneMs: latencies(r.alone),
      loadedMs: latencies(r.loaded),
      readsDuringFlood: r.loaded.length,
      floodSeconds: Number((r.floodMs / 1000).toFixed(1)),
      statuses: r.statuses,
    })),
  };
  writeResult(`bench/results/mcp-flood${UNLIMITED ? "-unlimited" : ""}.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify({ ratio: report.ratio, memoryMiB: report.memoryMiB }));
} finally {
  clearTimeout(limit);
  await server.stop();
}
