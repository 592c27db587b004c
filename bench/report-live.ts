// bench/README.md's sections for `npm run bench:live`, `npm run bench:governor` and the fairness
// and cold-start modes of `npm run bench:e2e`. A run smaller than the targets' sizes is shown as what it is: a check that
// the harness runs end to end, never as the targets' figures.
import { existsSync, readFileSync } from "node:fs";
import { orderSection } from "./report-live-order";

export const LIVE_RESULTS = {
  live: "bench/results/live.json",
  liveOrder: "bench/results/live-order.json",
  governor: "bench/results/governor.json",
  fairness: "bench/results/fairness.json",
  cold: "bench/results/cold.json",
};

export interface LiveResult {
  items: number;
  completeMs: number;
  itemsPerSecond: number;
  /** The lowest of each vendor's rate over the calls per item the waterfall made of it. */
  vendorCeiling: number;
  boundBy: string;
  /** Connections × invocations (Cloudflare's) over an item's vendor time. */
  concurrencyBound: number;
  /** The same with the most vendor calls seen in flight at once here, in place of connections × invocations. */
  localConcurrencyBound: number;
  peakInFlight: number;
  itemVendorMs: number;
  /** Calls answered per item, repeats included. */
  callsPerItem: Record<string, number>;
  /** The calls the waterfall needed per item: one per person (or address) each vendor was asked about. */
  neededPerItem?: Record<string, number>;
  /** Calls about a person the vendor had already answered about in the run (a retry's). */
  repeats?: number;
  refusedByVendor: Record<string, number>;
  refused: number;
  itemP50Ms: number;
  itemP99Ms: number;
  itemsSeen: number;
  everyRound?: number[];
}

interface ModeRun {
  date: string;
  machine: string;
  loadAverage: { atStart: number; atEnd: number };
  items: number;
  batches: number;
  rounds: number;
  ratio: number;
  everyRound: number[];
  aloneMs?: number;
  besideMs?: number;
  coldMs?: number;
  backToBackMs?: number;
}

const read = <T>(path: string): T | null => (existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : null);
const SMALL = (command: string) =>
  `**A small-size run: it shows the harness runs end to end, not the targets' figures, which are pending (\`${command}\` on a quiet machine).**`;
const rounds = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join(", ");

export function liveSections(): string[] {
  const lines: string[] = [];
  const live = read<{
    date: string;
    machine: string;
    loadAverage: { atStart: number; atEnd: number };
    rounds: number;
    limits: string;
    knows: Record<string, number>;
    latency: { p50Ms: number; p99Ms: number };
    connections: number;
    invocations: number;
    results: LiveResult[];
  }>(LIVE_RESULTS.live);
  lines.push(
    "## Live, against vendors' latency and rate limits (`npm run bench:live`)",
    "",
    "The full figures of issue 28 (items 1 and 3) come from three commands, each on a quiet machine (nothing else running: the servers and the load share its two cores):",
    "",
    "- `npm run bench:live` (1,000 and 10,000 items, 1 round; `--items`, `--rounds`, `--limits` in `VENDOR_RATE_LIMITS`' syntax, `--seed`): the vendors' ceiling with its default limits is about 8 items/s (PDL's 8/s over one call per item), so 10,000 items take at least 21 minutes; with the start and the 1,000 items, plan 30.",
    "- `npm run bench:e2e -- --mode fairness` (3 × 10,000 items beside 1, 5 rounds; `--items`, `--batches`, `--rounds`): about 5 minutes.",
    "- `npm run bench:e2e -- --mode cold` (10,000 items cold and back to back, 5 rounds; `--items`, `--rounds`): about 3 minutes.",
    "",
    "Each rewrites this file with its section; the runs so far are below.",
    "",
  );
  if (!live) lines.push("Pending: not yet run.", "");
  else {
    const full = live.results.some((r) => r.items >= 10_000);
    lines.push(
      ...(full ? [] : [SMALL("npm run bench:live"), ""]),
      `${live.date}, ${live.machine}, load average ${live.loadAverage.atStart} at the start and ${live.loadAverage.atEnd} at the end; ${live.rounds} round(s), the median shown. \`live\` batches through the whole waterfall against fake vendors on loopback (\`bench/live-vendors.ts\`): latency log-normal, p50 ${live.latency.p50Ms} ms and p99 ${live.latency.p99Ms} ms (seeded); limits \`${live.limits}\` enforced by the fakes (a call past them refused at once, with the vendor's status and retry header) and given to the service (\`VENDOR_RATE_LIMITS\`); finders know ${Object.entries(
        live.knows,
      )
        .map(([v, share]) => `${v} ${share * 100}%`)
        .join(
          ", ",
        )} of the people. Vendors' ceiling: the lowest of each vendor's rate over the calls per item the waterfall needed of it (one per person it was asked about; a repeated call about the same person is counted apart, under repeats, as it spends the vendor's budget for nothing). The limits make a vendor bind below what this machine can serve: Miniflare's local queue runs one consumer invocation at a time (Cloudflare runs up to 250), so at most 100 items are in flight and each invocation lasts as long as its slowest item; with PDL at 40/s (\`hunter=50/1,pdl=40/1,apollo=40/1,prospeo=30/1\`, a ceiling of 40 items/s), 1,000 items ran at 19.8 items/s (0.49) with the machine near idle (load average 0.3). Concurrency bound: ${live.connections} connections × ${live.invocations} invocations (Cloudflare's) over an item's vendor time (its calls are made one after another); locally, with the most calls seen in flight at once in their place. Item p50/p99: from the submit to the item's event on the batch's stream.`,
      "",
      "| items | items/s | vendors' ceiling (by) | ratio | concurrency bound | local bound (calls at once) | calls per item | repeats | 429s | item p50 ms | item p99 ms |",
      "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|",
      ...live.results.map(
        (r) =>
          `| ${r.items.toLocaleString("en")} | ${r.itemsPerSecond.toFixed(1)} | ${r.vendorCeiling.toFixed(1)} (${r.boundBy}) | ${(r.itemsPerSecond / r.vendorCeiling).toFixed(2)} | ${r.concurrencyBound.toFixed(0)} | ${r.localConcurrencyBound.toFixed(1)} (${r.peakInFlight}) | ${Object.entries(
            r.callsPerItem,
          )
            .filter(([, calls]) => calls > 0)
            .map(([v, calls]) => `${v} ${calls.toFixed(2)}`)
            .join(", ")} | ${r.repeats ?? "–"} | ${r.refused} | ${r.itemP50Ms} | ${r.itemP99Ms} |`,
      ),
      "",
      "![live items/s](results/live.svg)",
      "",
    );
  }
  lines.push(...orderSection(LIVE_RESULTS.liveOrder));
  const governor = read<{
    date: string;
    machine: string;
    loadAverage: { atStart: number; atEnd: number };
    rounds: number;
    callsPerRound: number;
    callers: number;
    maxTokensPerLease: number;
    leasesPerSecond: { granted: number; saturated: number };
    everyRound: { granted: number[]; saturated: number[] };
  }>(LIVE_RESULTS.governor);
  lines.push("## What one vendor governor answers (`npm run bench:governor`)", "");
  if (!governor) lines.push("Pending: not yet run.", "");
  else {
    const { granted, saturated } = governor.leasesPerSecond;
    const whole = (values: readonly number[]) => values.map((v) => v.toLocaleString("en")).join(", ");
    lines.push(
      `${governor.date}, ${governor.machine}, load average ${governor.loadAverage.atStart} at the start and ${governor.loadAverage.atEnd} at the end. ${governor.callers} concurrent callers (as many consumer invocations) lease from one \`VendorGovernor\` object in local workerd, ${governor.callsPerRound.toLocaleString("en")} leases a round, ${governor.rounds} rounds, the median shown: ${granted.toLocaleString("en")} leases/s with every lease granted (rounds ${whole(governor.everyRound.granted)}), ${saturated.toLocaleString("en")} with the vendor saturated, most refused (rounds ${whole(governor.everyRound.saturated)}). A lease carries up to ${governor.maxTokensPerLease} calls, so one object governs up to ${(granted * governor.maxTokensPerLease).toLocaleString("en")} vendor calls a second when consumers have calls waiting, ${granted.toLocaleString("en")} at worst (one call a lease); every published limit but ZeroBounce's is under 20 calls a second. How it shards past that: docs/architecture.md, "The vendor rate governor".`,
      "",
    );
  }
  const fairness = read<ModeRun>(LIVE_RESULTS.fairness);
  const cold = read<ModeRun>(LIVE_RESULTS.cold);
  lines.push("## Fairness and cold start (`npm run bench:e2e -- --mode fairness`, `-- --mode cold`)", "");
  if (!fairness) lines.push("Fairness: pending, not yet run.", "");
  else {
    const full = fairness.items >= 10_000 && fairness.batches >= 3;
    lines.push(
      ...(full ? [] : [SMALL("npm run bench:e2e -- --mode fairness"), ""]),
      `Fairness, ${fairness.date}, ${fairness.machine}, load average ${fairness.loadAverage.atStart}–${fairness.loadAverage.atEnd}: a 1-item \`test\` batch completed in ${fairness.aloneMs} ms alone and in ${fairness.besideMs} ms submitted right after another customer's ${fairness.batches} × ${fairness.items.toLocaleString("en")} items were accepted: ${fairness.ratio.toFixed(2)}× (median of ${fairness.rounds} rounds: ${rounds(fairness.everyRound)}). Target ≤ 3×: ${full ? (fairness.ratio <= 3 ? "met" : "**missed**") : "not judged at this size"}.`,
      "",
    );
  }
  if (!cold) lines.push("Cold start: pending, not yet run.", "");
  else {
    const full = cold.items >= 10_000;
    lines.push(
      ...(full ? [] : [SMALL("npm run bench:e2e -- --mode cold"), ""]),
      `Cold start, ${cold.date}, ${cold.machine}, load average ${cold.loadAverage.atStart}–${cold.loadAverage.atEnd}: ${cold.items.toLocaleString("en")} \`test\` items completed in ${cold.coldMs} ms after the servers were idle for 5 s and in ${cold.backToBackMs} ms right after: cold at ${cold.ratio.toFixed(2)} of the back-to-back rate (median of ${cold.rounds} rounds: ${rounds(cold.everyRound)}). Target ≥ 0.9: ${full ? (cold.ratio >= 0.9 ? "met" : "**missed**") : "not judged at this size"}.`,
      "",
    );
  }
  return lines;
}
