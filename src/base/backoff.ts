/** Exponential backoff: the first retry waits `baseSeconds`, each next one twice as long, never over `maxSeconds`. */
export interface BackoffOptions {
  baseSeconds: number;
  maxSeconds: number;
}

/**
 * The delay before retry number `attempt` (1 = the first retry), with "equal
 * jitter" (half fixed, half random) so retries of one failing batch spread out
 * but never come back at once. The one backoff of the code base: the item and
 * webhook retries, the fan-out's after a failed send, and an alarm step's after a
 * failed call (batch/step-retry.ts). Options are checked,
 * since a base over the cap would silently cap every delay at once.
 */
export function backoff({
  baseSeconds,
  maxSeconds,
}: BackoffOptions): (attempt: number, random?: () => number) => number {
  if (!(baseSeconds >= 0 && maxSeconds >= baseSeconds)) {
    throw new RangeError(`backoff needs 0 <= baseSeconds <= maxSeconds (got ${baseSeconds} and ${maxSeconds})`);
  }
  return (attempt, random = Math.random) => {
    const exponential = Math.min(maxSeconds, baseSeconds * 2 ** Math.max(0, attempt - 1));
    return Math.round(exponential / 2 + random() * (exponential / 2));
  };
}
