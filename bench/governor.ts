// npm run bench:governor: the lease calls one VendorGovernor object answers a second,
// from 50 concurrent callers (as many consumer invocations), with every lease granted
// and with a saturated vendor (most refused), in ROUNDS rounds; the median round is
// reported, in bench/results/governor.json and bench/README.md. Each lease covers up to MAX_TOKENS_PER_LEASE
// calls to the vendor, so the vendor calls one object can govern are up to that many
// times the figure (docs/architecture.md, "The vendor rate governor").
import { loadavg } from "node:os";
import { startLocalServer } from "../scripts/local-server";
import { MAX_TOKENS_PER_LEASE } from "../src/tools-api";
import { machine, median, writeReport } from "./report";
import { sized, writeResult } from "./smoke";

const ROUNDS = sized(Number(process.env.BENCH_ROUNDS ?? 5), 1);
const CALLS = sized(Number(process.env.BENCH_CALLS ?? 20_000), 500);
const CALLERS = 50;
const CASES = { granted: 1_000_000_000, saturated: 15 };

// The machine is shared: its load when the run began says how far to trust the figures.
const loadAtStart = Number(loadavg()[0]?.toFixed(1));
const server = await startLocalServer({ config: "bench/governor/wrangler.toml", devTooling: false });
try {
  const rates: Record<keyof typeof CASES, number[]> = { granted: [], saturated: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, limit] of Object.entries(CASES) as [keyof typeof CASES, number][]) {
      const response = await fetch(`${server.url}/lease?calls=${CALLS}&callers=${CALLERS}&limit=${limit}`);
      const result = (await response.json()) as { callsPerSecond: number; granted: number; ms: number };
      rates[name].push(result.callsPerSecond);
      console.log(
        `round ${round} ${name}: ${result.callsPerSecond} leases/s (${CALLS} in ${result.ms} ms, ${result.granted} tokens)`,
      );
    }
  }
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: { atStart: loadAtStart, atEnd: Number(loadavg()[0]?.toFixed(1)) },
    rounds: ROUNDS,
    callsPerRound: CALLS,
    callers: CALLERS,
    maxTokensPerLease: MAX_TOKENS_PER_LEASE,
    leasesPerSecond: { granted: median(rates.granted), saturated: median(rates.saturated) },
    everyRound: rates,
  };
  writeResult("bench/results/governor.json", `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report.leasesPerSecond));
  writeReport();
} finally {
  await server.stop();
}
