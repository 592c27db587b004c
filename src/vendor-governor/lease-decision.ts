import type { RateWindow } from "../base/vendor-limits";

// Tokens one lease may ask for: a block, so a consumer asks once for the calls it has
// waiting, and no consumer can take a whole second's budget of a small vendor at once.
export const MAX_TOKENS_PER_LEASE = 10;

// Each window is counted this much longer than the vendor's, as a margin for the spread between a
// grant and its call's arrival at the vendor (the lease's answer travelling back, the consumer's event
// loop, the network): without it, calls granted late in one window and calls granted early in the next,
// arriving bunched, made a vendor counting arrivals refuse a few (bench:live: 40-106 refusals a run).
// On a one-second window it costs a tenth of the rate; on a minute, under 0.2%.
export const WINDOW_MARGIN_MS = 100;

/** Tokens the governor handed out at one moment (ms since the epoch), oldest first in a log. */
export interface Grant {
  at: number;
  count: number;
}

export type LeaseDecision =
  /** `granted` tokens (at least 1, at most what was asked), counted at `at`. */
  | { granted: number; at: number }
  /** None now: the earliest moment a token may be granted (a pause's end, or a grant leaving a window). */
  | { granted: 0; at: number; retryAt: number };

/**
 * How many of `want` call tokens may be granted at `now` so that no window of
 * the vendor's ever holds more than its limit, counted as a sliding log of the
 * grants (`grants`, oldest first: each lies in a window while `now < at + seconds`, plus
 * WINDOW_MARGIN_MS),
 * and nothing while the vendor is paused (its Retry-After). A sliding log rather
 * than a token bucket: a bucket refills mid-window, and a vendor counting fixed
 * or sliding windows would see a burst past its limit.
 */
export function decideLease(
  grants: readonly Grant[],
  now: number,
  want: number,
  windows: readonly RateWindow[],
  pausedUntil: number,
): LeaseDecision {
  if (now < pausedUntil) return { granted: 0, at: now, retryAt: pausedUntil };
  let granted = want;
  let retryAt = now;
  for (const window of windows) {
    const span = spanOf(window);
    const inside = grants.filter((grant) => now < grant.at + span);
    const used = inside.reduce((sum, grant) => sum + grant.count, 0);
    const left = window.limit - used;
    granted = Math.min(granted, left);
    if (left <= 0) retryAt = Math.max(retryAt, whenOneIsFree(inside, used - window.limit + 1, span));
  }
  return granted > 0 ? { granted, at: now } : { granted: 0, at: now, retryAt };
}

/** How long a grant counts in a window: the vendor's span and our margin, ms. */
const spanOf = (window: RateWindow) => window.seconds * 1000 + WINDOW_MARGIN_MS;

/** When the oldest grants holding `needed` tokens have left the window. */
function whenOneIsFree(inside: readonly Grant[], needed: number, span: number): number {
  let freed = 0;
  for (const grant of inside) {
    freed += grant.count;
    if (freed >= needed) return grant.at + span;
  }
  // Unreachable while `needed` ≤ the tokens inside; a window of limit 0 never frees one.
  return Number.POSITIVE_INFINITY;
}

/** The log less the grants outside every window: what the governor still needs to keep. */
export function dropExpired(grants: Grant[], now: number, windows: readonly RateWindow[]): Grant[] {
  const longest = Math.max(0, ...windows.map(spanOf));
  const firstKept = grants.findIndex((grant) => now < grant.at + longest);
  return firstKept === -1 ? [] : firstKept === 0 ? grants : grants.slice(firstKept);
}
