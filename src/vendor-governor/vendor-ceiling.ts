import { DurableObject } from "cloudflare:workers";
import { applyMigrations } from "../base/sql-migrations";
import {
  type CeilingGrant,
  decideCeiling,
  MAX_CALLS_PER_TAKE,
  nextUtcDay,
  oldestDayKept,
  utcDay,
} from "./daily-ceiling";

// Append-only (docs/storage.md, "Migrations").
const MIGRATIONS = ["CREATE TABLE calls_per_day (day TEXT PRIMARY KEY, calls INTEGER NOT NULL CHECK (calls >= 0))"];

/**
 * One vendor's paid calls per UTC day, across every customer and consumer, against the operator's
 * ceiling (VENDOR_DAILY_CALLS): one object per vendor, named by the vendor (`ceilingStub`).
 *
 * Not in the VendorGovernor: the governor is one object per vendor API key, so a key rotated mid-day
 * would start the day's count again, and it exists only while VENDOR_GOVERNOR is on; and it keeps its
 * grants in memory so that a lease waits for no write, where a day's count must outlive an eviction.
 * Nor one object per vendor and day: the day would then be each consumer's clock's, and each day's
 * object would need an alarm to delete itself. Here the object's clock names the day, a row per day.
 *
 * Exact through an eviction and a redelivered message: a take writes the count before it answers (the
 * output gate holds the answer until the write is durable), so an object that is evicted or fails first
 * counts nothing and its caller makes no call; and the consumer takes only at the moment a call goes,
 * so a message delivered twice counts the calls each delivery makes, never the ones it does not.
 */
export class VendorCeiling extends DurableObject<Env> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    applyMigrations(ctx.storage, MIGRATIONS);
  }

  /** Up to `want` calls now, each counted against today's `ceiling`; see `decideCeiling`. */
  take(want: number, ceiling: number): CeilingGrant {
    const now = Date.now();
    const day = utcDay(now);
    const used = this.#callsOn(day);
    const asked = Math.max(1, Math.min(MAX_CALLS_PER_TAKE, Math.floor(want)));
    const granted = decideCeiling(used, asked, Math.max(0, Math.floor(ceiling)));
    if (granted > 0) {
      if (used === 0) this.#sql.exec("DELETE FROM calls_per_day WHERE day < ?", oldestDayKept(now));
      this.#sql.exec(
        "INSERT INTO calls_per_day (day, calls) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET calls = calls + excluded.calls",
        day,
        granted,
      );
    }
    return { granted, calls: used + granted, resetsAt: nextUtcDay(now) };
  }

  /** Today's count (UTC, by this object's clock), for the operator's view. */
  today(): { day: string; calls: number } {
    const day = utcDay(Date.now());
    return { day, calls: this.#callsOn(day) };
  }

  #callsOn(day: string): number {
    return (
      this.#sql.exec<{ calls: number }>("SELECT calls FROM calls_per_day WHERE day = ?", day).toArray()[0]?.calls ?? 0
    );
  }
}
