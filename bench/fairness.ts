// The fairness benchmarks' one measure (bench:streams, bench:mcp-flood): tenant B's read latencies
// while tenant A loads the server, over the same reads with A idle in the same round (the floor).
import { quantile } from "./batch-stream";
import { median } from "./report";

/** One round's reads of B: alone (the floor) and while A loads the server. */
export interface FairnessRound {
  alone: number[];
  loaded: number[];
}

const QUANTILES = { p50: 0.5, p95: 0.95 } as const;

/** A sample's p50 and p95, in milliseconds. */
export const latencies = (values: readonly number[]) => ({
  p50: quantile(values, QUANTILES.p50),
  p95: quantile(values, QUANTILES.p95),
});

/** A round's line: B's latencies alone and `while` A loads, and their ratios. */
export function roundLine({ alone, loaded }: FairnessRound, while_: string): string {
  const floor = latencies(alone);
  const under = latencies(loaded);
  const ms = ({ p50, p95 }: { p50: number; p95: number }) => `p50 ${p50.toFixed(1)} ms p95 ${p95.toFixed(1)} ms`;
  return `B alone ${ms(floor)}; ${while_} ${ms(under)} (×${(under.p50 / floor.p50).toFixed(2)}, ×${(under.p95 / floor.p95).toFixed(2)})`;
}

/** The median round's ratios, loaded over alone: the figure each report leads with. */
export function medianRatios(rounds: readonly FairnessRound[]): { p50: number; p95: number } {
  const ratios = (q: number) => rounds.map((r) => quantile(r.loaded, q) / quantile(r.alone, q));
  return { p50: median(ratios(QUANTILES.p50)), p95: median(ratios(QUANTILES.p95)) };
}
