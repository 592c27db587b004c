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
 * counts while `at > now − window`. `held` units are taken for as long as what
 * holds them lasts (open event streams): they leave no window, they end.
 */
export function windowUsage(
  log: WindowLog,
  now: number,
  { limit, windowSeconds }: RateLimitSetting,
  held = 0,
): WindowUsage {
  const used = log.count + held;
  // Once `used − limit + 1` requests have left, `used` is below `limit` again: the
  // one at index `used − limit` is the last of them. With room, the oldest frees a unit.
  const leaving = Math.max(0, used - limit);
  const freeing = log.count === 0 || leaving >= log.count ? undefined : log.at(leaving);
  // Nothing counted frees a unit: with room, nothing to wait for; full of held units, a
  // unit frees when one of them ends, which cannot be told: a window is said.
  const unknown = used === 0 || used < limit ? 0 : windowSeconds;
  const resetSeconds =
    freeing === undefined ? unknown : Math.max(1, Math.ceil((freeing + windowSeconds * 1000 - now) / 1000));
  return { limit, windowSeconds, used, remaining: Math.max(0, limit - used), resetSeconds };
}

/** Whether a request at `now` may be counted, and the usage after counting it (if it is). */
export function decide(log: WindowLog, now: number, setting: RateLimitSetting, held = 0): Decision {
  if (log.count + held >= setting.limit) return { ...windowUsage(log, now, setting, held), allowed: false };
  const counted: WindowLog = { count: log.count + 1, at: (index) => (index < log.count ? log.at(index) : now) };
  return { ...windowUsage(counted, now, setting, held), allowed: true };
}
