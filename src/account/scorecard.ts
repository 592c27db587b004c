import { medianLatency } from "./latency";
import type { SourceScorecard } from "./views";

// A source's scorecard from its counts, pure, so one customer's (GET …/me/sources) and the operator's
// across customers (the admin API) are made alike.

/** What the account keeps of one source over a span of days: the sums, and the latency histogram. */
export interface SourceCounts {
  source: string;
  calls: number;
  hits: number;
  verifiedValid: number;
  reported: number;
  creditsRefunded: number;
  rateLimited: number;
  latency: { bucket: number; calls: number }[];
}

/** Sums counts of the same sources (several customers'), by source name. */
export function mergeSourceCounts(lists: readonly (readonly SourceCounts[])[]): SourceCounts[] {
  const merged = new Map<string, SourceCounts & { histogram: Map<number, number> }>();
  for (const counts of lists.flat()) {
    const into = merged.get(counts.source) ?? {
      source: counts.source,
      calls: 0,
      hits: 0,
      verifiedValid: 0,
      reported: 0,
      creditsRefunded: 0,
      rateLimited: 0,
      latency: [],
      histogram: new Map(),
    };
    into.calls += counts.calls;
    into.hits += counts.hits;
    into.verifiedValid += counts.verifiedValid;
    into.reported += counts.reported;
    into.creditsRefunded += counts.creditsRefunded;
    into.rateLimited += counts.rateLimited;
    for (const { bucket, calls } of counts.latency)
      into.histogram.set(bucket, (into.histogram.get(bucket) ?? 0) + calls);
    merged.set(counts.source, into);
  }
  return [...merged.values()]
    .sort((a, b) => a.source.localeCompare(b.source))
    .map(({ histogram, ...counts }) => ({
      ...counts,
      latency: [...histogram].map(([bucket, calls]) => ({ bucket, calls })),
    }));
}

const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

export const scorecardOf = ({ latency, ...counts }: SourceCounts): SourceScorecard => ({
  source: counts.source,
  calls: counts.calls,
  hits: counts.hits,
  hitRate: rate(counts.hits, counts.calls),
  verifiedValid: counts.verifiedValid,
  verifiedValidRate: rate(counts.verifiedValid, counts.hits),
  reported: counts.reported,
  creditsRefunded: counts.creditsRefunded,
  medianLatencyMs: medianLatency(new Map(latency.map(({ bucket, calls }) => [bucket, calls]))),
  rateLimited: counts.rateLimited,
});
