/**
 * Delay before retry number `attempt` (1 = the first retry): exponential from
 * `baseSeconds`, capped at `maxSeconds`, with "equal jitter" (half fixed, half
 * random) so retries of one failing batch spread out but never come back at once.
 */
export function retryDelaySeconds(attempt: number, baseSeconds: number, maxSeconds: number, random = Math.random): number {
  const exponential = Math.min(maxSeconds, baseSeconds * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}
