import type { RateLimitSetting } from "./endpoint-types";

export interface WindowUsage {
  limit: number;
  windowSeconds: number;
  used: number;
  remaining: number;
  /**
   * Seconds until a request can be counted again: while there is room, until the
   * oldest counted request leaves the window; when full (or over a lowered limit),
   * until `used` falls below `limit`. 0 when nothing is counted.
   */
  resetSeconds: number;
}

export interface Decision extends WindowUsage {
  allowed: boolean;
}

/** The allowed requests still inside the window for one endpoint type, oldest first. */
export interface WindowLog {
  count: number;
  /** The millisecond time of the `index`-th oldest of them (0 ≤ index < count). */
  at(index: number): number;
}

/**
 * An exact sliding window: at most `limit` requests are allowed in any span of
 * `windowSeconds`, with no burst at window boundaries (unlike fixed windows or
 * token buckets). Only allowed requests are counted. A request made at `at`
 * counts while `at > now − window`.
 */
export function windowUsage(log: WindowLog, now: number, { limit, windowSeconds }: RateLimitSetting): WindowUsage {
  const used = log.count;
  // Once `used − limit + 1` requests have left, `used` is below `limit` again: the
  // one at index `used − limit` is the last of them. With room, the oldest frees a unit.
  const freeing = used === 0 ? undefined : log.at(Math.max(0, used - limit));
  const resetSeconds = freeing === undefined ? 0 : Math.max(1, Math.ceil((freeing + windowSeconds * 1000 - now) / 1000));
  return { limit, windowSeconds, used, remaining: Math.max(0, limit - used), resetSeconds };
}

/** Whether a request at `now` may be counted, and the usage after counting it (if it is). */
export function decide(log: WindowLog, now: number, setting: RateLimitSetting): Decision {
  if (log.count >= setting.limit) return { ...windowUsage(log, now, setting), allowed: false };
  const counted: WindowLog = { count: log.count + 1, at: (index) => (index < log.count ? log.at(index) : now) };
  return { ...windowUsage(counted, now, setting), allowed: true };
}
