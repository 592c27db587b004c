// The operator's ceiling on a vendor's paid calls per UTC day (VENDOR_DAILY_CALLS): pure, so the
// VendorCeiling object that counts and the tests read one rule.

/** Days of counts a VendorCeiling keeps, today's included: enough to look back over a week. */
export const DAYS_KEPT = 7;

/** Calls one take may ask for: a consumer invocation's waiting calls of one vendor, at most. */
export const MAX_CALLS_PER_TAKE = 100;

/** The UTC day of `now` (ms since the epoch), as YYYY-MM-DD: the unit the ceiling counts in. */
export const utcDay = (now: number): string => new Date(now).toISOString().slice(0, 10);

/** The first moment of the UTC day after `now`'s: when a spent ceiling is whole again. */
export function nextUtcDay(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
}

/** The oldest day whose count is still kept at `now`: older rows are deleted. */
export const oldestDayKept = (now: number): string => utcDay(nextUtcDay(now) - DAYS_KEPT * 86_400_000);

/**
 * How many of `want` calls may go when `used` of today's `ceiling` are spent: every one that fits,
 * none past it, so a day's count never passes its ceiling, however many consumers ask at once.
 */
export const decideCeiling = (used: number, want: number, ceiling: number): number =>
  Math.max(0, Math.min(want, ceiling - used));

/** What a take answers: the calls granted (each counted, to be made at once), today's count after it, and when the day ends. */
export interface CeilingGrant {
  granted: number;
  calls: number;
  resetsAt: number;
}
