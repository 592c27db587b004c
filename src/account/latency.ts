// Latencies are kept as histograms (buckets 10% wide): a median over any span of days, or of customers,
// is then exact to the bucket without every call kept.

const GROWTH = 1.1;

/** The bucket of a latency in ms: 0 for 0 or 1 ms, else ⌊log₁.₁ ms⌋, the span [1.1ᵇ, 1.1ᵇ⁺¹). */
export const latencyBucket = (ms: number): number => (ms <= 1 ? 0 : Math.floor(Math.log(ms) / Math.log(GROWTH)));

/** The median of a histogram (bucket → calls), as its bucket's middle in ms; null when it is empty. */
export function medianLatency(histogram: ReadonlyMap<number, number>): number | null {
  const total = [...histogram.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const [bucket, count] of [...histogram].sort(([a], [b]) => a - b)) {
    seen += count;
    if (seen * 2 >= total) return bucket === 0 ? 1 : Math.round(GROWTH ** (bucket + 0.5));
  }
  return null;
}
