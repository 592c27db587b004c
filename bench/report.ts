// Renders bench/README.md (the current results only; bench/NOTES.md keeps the history) from the latest results of `npm run bench`, `npm run bench:e2e` (its
// fairness and cold modes too), `npm run bench:live` and `npm run bench:cost`,
// and what they share.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { costSections } from "./report-cost";
import { LIVE_RESULTS, liveSections } from "./report-live";
import { SMOKE } from "./smoke";

export const RESULTS = { http: "bench/results/http.json", e2e: "bench/results/e2e.json", ...LIVE_RESULTS };

// The benchmarks' servers run without wrangler dev's DevTools session and trace collector
// (bench/serve.ts); BENCH_DEV_TOOLING=1 runs them under plain `wrangler dev`, to compare.
export const DEV_TOOLING = process.env.BENCH_DEV_TOOLING === "1";

export interface HttpResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Ratio to this floor's requests per second (the name of a result in the same run). */
  ratio: number;
  /** The floor's name; results from before the submit floor have none: GET /healthz. */
  against?: string;
  target?: number;
  /** The ratio in each round (`ratio` is their median); absent in results from before rounds. */
  ratios?: number[];
}

export interface E2eResult {
  items: number;
  acceptMs: number;
  completeMs: number;
  itemsPerSecond: number;
  msPerItem: number;
  /** Items/s over the ceiling of the same round, per round (absent in results from before rounds). */
  ratios?: number[];
  /** The same over the ceiling of grouped messages (absent in results from before grouping). */
  groupedRatios?: number[];
}

/**
 * Writes the machine's dirty pages to disk (sync(1)). Called after work that wrote
 * many local databases (a submit run, a batch), so the next measurement does not
 * wait behind their write-back: every write a measured request commits (the
 * limiter's, a new batch's) would, and its floor may write nothing.
 */
export function flushDisk(): void {
  execFileSync("sync");
}

/** The middle value (of an odd count; the lower middle of an even one). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

const read = <T>(path: string): T | null => (existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : null);

export function writeReport(): void {
  if (SMOKE) return;
  const http = read<{
    date: string;
    machine: string;
    durationSeconds: number;
    connections: number;
    rounds?: number;
    results: HttpResult[];
  }>(RESULTS.http);
  const e2e = read<{
    date: string;
    machine: string;
    rounds?: number;
    ceiling: { items: number; ms: number; itemsPerSecond: number };
    groupedCeiling?: { items: number; ms: number; itemsPerSecond: number };
    results: E2eResult[];
    maxBatchItems: number;
  }>(RESULTS.e2e);
  const lines = [
    "# Benchmarks",
    "",
    "Measured with `npm run bench`, `npm run bench:e2e` and `npm run bench:live` on loopback, against the Worker as `wrangler dev` runs it (local workerd, local Queues, KV and Durable Objects, wrangler's proxy in front) but without the two debugging aids `wrangler dev` attaches to every Worker and no deployed Worker has: its DevTools session, which makes every log line a debugger event, and its local trace collector, fed an event for every invocation, Durable Object call and SQL statement (`bench/serve.ts`; `BENCH_DEV_TOOLING=1` keeps them). Each figure is compared with a floor measured in the same run, so a slow or busy machine shifts both. Local workerd is not Cloudflare's edge: absolute numbers say little about production, ratios say how much our code costs on top of the platform.",
    "",
    "Every `npm run bench*` script also runs as a smoke at its smallest size, `BENCH_SMOKE=1 npm run bench…` (`bench/smoke.ts`), which writes no results: `.ci/run` runs them all, so a benchmark that stops working fails the build.",
    "",
  ];
  if (http) {
    lines.push(
      "## HTTP throughput (`npm run bench`)",
      "",
      `${http.date}, ${http.machine}. autocannon, ${http.connections} connections, ${http.durationSeconds} s per route, one route at a time${http.rounds ? `, in ${http.rounds} rounds: every route once per round, each ratio against its floor in the same round, and after each round the queue drained of the batches the submit made and the disk synced (\`sync\`), so that the next round's writes (the limiter's row per request, a new batch) do not wait behind those batches' write-back, then 40 s of rest (\`BENCH_SETTLE_SECONDS\`) before the next round, as the status read measured right after a submit run ran slower (0.45–0.54 of \`/healthz\` with no rest, 0.52–0.56 with it). Every run starts once the servers' processes have been idle for 5 s (under 5% of a CPU and at most 20 write calls in every half second; \`bench/quiet.ts\`), as some runs leave work behind for seconds, not all of it on the CPU: measured right after the floor that sends, the submit waited on the disk, at a third of its throughput. Shown: the median ratio, the figures of the round it came from, and every round's ratio` : ""}. Floors: \`GET /healthz\` (the request path of \`wrangler dev\` and the Worker) for the reads, and for the submit a minimal Worker (\`bench/floors/\`) that per request parses the same body, creates a new SQLite Durable Object, writes the 100 items in one transaction and sets an alarm: what one batch costs the platform at the least. The submit's target (≥ 0.6, issue 28) is against that Worker doing also what the service must do per batch on the platform: after answering, send the 100 items to a queue in messages of 10, as the service does (acked by a no-op consumer taking as many per invocation as the service's) and call one more Durable Object (one row), so its gap to that floor is the service's own code; the submit is shown once more, without a target, against the bare floor (the earlier target, 0.9 of it, was out of reach by the architecture: the floor that sends reads about 0.84 of it). Likewise the status read is shown against the same Worker making a read's two calls in parallel: one to an object that counts the request with an INSERT (as the rate limiter does), one to an object that reads a row and returns a page of as many bytes as the status page, kept in memory (as the batch does), which is the answer.`,
      "",
      "| route | requests/s | p50 ms | p99 ms | non-2xx | ratio | rounds | to | target | met |",
      "|---|---:|---:|---:|---:|---:|---|---|---:|---|",
      ...http.results.map((r) => {
        const against = r.against ?? http.results[0]?.name;
        const floor = against === r.name;
        const rounds = floor ? "" : (r.ratios ?? []).map((ratio) => ratio.toFixed(2)).join(", ");
        return `| ${r.name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.ratio.toFixed(2)} | ${rounds} | ${floor ? "" : against} | ${r.target ?? (floor ? "floor" : "")} | ${r.target === undefined ? "" : r.ratio >= r.target ? "yes" : "**no**"} |`;
      }),
      "",
      "![throughput vs floor](results/http.svg)",
      "",
    );
  }
  if (e2e) {
    const first = e2e.results[0];
    const last = e2e.results[e2e.results.length - 1];
    const ten = e2e.results.find((r) => r.items === 10_000);
    const thousand = e2e.results.find((r) => r.items === 1_000);
    const ratio = (r: E2eResult) => (r.ratios ? median(r.ratios) : r.itemsPerSecond / e2e.ceiling.itemsPerSecond);
    lines.push(
      "## End to end (`npm run bench:e2e`)",
      "",
      `${e2e.date}, ${e2e.machine}. One \`test\` batch at a time; accept = until the 202, complete = until the batch's \`completedAt\` (when its last item was recorded, as the batch reports it; found by polling every 50 ms, so the polling step is not in the time), after a 10-item warm-up batch; the disk synced after each batch. Ceiling: a no-op consumer of one-item messages, 100 per invocation (the service's queue settings before its items were grouped; the targets' reference), timed to its last count likewise, drained ${e2e.ceiling.items.toLocaleString("en")} items at ${e2e.ceiling.itemsPerSecond.toFixed(0)} items/s${e2e.groupedCeiling ? `; the same no-op consumer of the service's messages today (10 items each, 10 per invocation) drained them at ${e2e.groupedCeiling.itemsPerSecond.toFixed(0)} items/s, and the last column is the service against it: what the service's own work costs on top of its queue` : ""}${e2e.rounds ? ` (the median of ${e2e.rounds} rounds; each round measures the ceilings, then each batch up to 10,000 items against them, larger batches only in the last round; shown: each size's median ratio, the figures of its round, and every round's ratio)` : ""}.`,
      "",
      `| items | accept ms | complete ms | items/s | ms per item | ratio to queue ceiling | rounds |${e2e.groupedCeiling ? " ratio to the grouped ceiling |" : ""}`,
      `|---:|---:|---:|---:|---:|---:|---|${e2e.groupedCeiling ? "---:|" : ""}`,
      ...e2e.results.map(
        (r) =>
          `| ${r.items.toLocaleString("en")} | ${r.acceptMs.toFixed(0)} | ${r.completeMs.toFixed(0)} | ${r.itemsPerSecond.toFixed(0)} | ${r.msPerItem.toFixed(3)} | ${ratio(r).toFixed(2)} | ${(r.ratios ?? []).map((x) => x.toFixed(2)).join(", ")} |${r.groupedRatios ? ` ${median(r.groupedRatios).toFixed(2)} |` : ""}`,
      ),
      "",
      "![e2e time vs batch size](results/e2e.svg)",
      "",
      "Targets:",
      "",
      ten
        ? `- 10,000 items accepted in under 1 s: ${ten.acceptMs.toFixed(0)} ms, ${ten.acceptMs < 1000 ? "met" : "**missed**"}.`
        : "- 10,000 items: not measured.",
      ten
        ? `- 10,000 items completed at ≥ 0.5 of the queue ceiling: ${ratio(ten).toFixed(2)}, ${ratio(ten) >= 0.5 ? "met" : "**missed**"}.`
        : "",
      thousand
        ? `- 1,000 items completed at ≥ 0.35 of the queue ceiling: ${ratio(thousand).toFixed(2)}, ${ratio(thousand) >= 0.35 ? "met" : "**missed**"}.`
        : "",
      first && last
        ? `- Per-item cost growth from ${first.items.toLocaleString("en")} to ${last.items.toLocaleString("en")} items < 1.5×: ${(last.msPerItem / first.msPerItem).toFixed(2)}×, ${last.msPerItem / first.msPerItem < 1.5 ? "met" : "**missed**"}.`
        : "",
      `- \`MAX_BATCH_ITEMS\` used for this run: ${e2e.maxBatchItems.toLocaleString("en")}.`,
      "",
    );
  }
  lines.push(...liveSections());
  lines.push(...costSections());
  // The current results only: how they came to be, run by run, is bench/NOTES.md's, kept by hand.
  lines.push(
    "## History",
    "",
    "How to read these numbers, and every earlier run with what changed between them: [NOTES.md](NOTES.md).",
  );
  writeFileSync("bench/README.md", `${lines.filter((line) => line !== undefined).join("\n")}\n`);
}
