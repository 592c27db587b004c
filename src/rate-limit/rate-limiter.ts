import { DurableObject } from "cloudflare:workers";
import { ENDPOINT_TYPES, type EndpointType, type RateLimitSetting } from "./endpoint-types";
import { migrate } from "./schema";
import { type Decision, decide, type WindowLog, type WindowUsage, windowUsage } from "./sliding-window";

export interface ConsumeResult {
  decision: Decision;
  /** Every endpoint type's usage after this request, for GET /me/rate-limits: only when asked for (`withUsage`). */
  usage?: Record<EndpointType, WindowUsage>;
}

// Expired hits deleted per endpoint type per call, so a limiter that sat idle
// while a large window expired catches up over a few calls instead of one slow one.
// Decisions never depend on it: they count only hits inside the window.
const MAX_DELETES_PER_CALL = 1000;

type Hit = { seq: number; at: number };

/**
 * The request counts of one customer in one environment (all its keys), one
 * sliding window per endpoint type, counted in the object's SQLite. A Durable
 * Object runs one call at a time and `consume` never awaits, so concurrent
 * requests are decided one after another against the stored count. Each
 * decision is a handful of index lookups whatever the limit; nothing is loaded
 * into memory when the object starts.
 */
export class RateLimiter extends DurableObject<Env> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    // Synchronous, so it completes before the first call is delivered.
    migrate(this.#sql);
  }

  /**
   * Decides and counts one request of `endpointType`. The other types' windows are
   * read only `withUsage`; otherwise their expired hits are just deleted.
   */
  consume(endpointType: EndpointType, limits: Record<EndpointType, RateLimitSetting>, { withUsage = false } = {}): ConsumeResult {
    const now = Date.now();
    const log = this.#window(endpointType, now, limits[endpointType].windowSeconds);
    const decision = decide(log, now, limits[endpointType]);
    if (decision.allowed) this.#record(endpointType, now, log.newest);
    const others = ENDPOINT_TYPES.filter((type) => type !== endpointType);
    if (!withUsage) {
      for (const type of others) this.#deleteExpired(type, now, limits[type].windowSeconds);
      return { decision };
    }
    const usage = Object.fromEntries([
      [endpointType, decision],
      ...others.map((type) => [type, windowUsage(this.#window(type, now, limits[type].windowSeconds), now, limits[type])]),
    ]) as Record<EndpointType, WindowUsage>;
    return { decision, usage };
  }

  /**
   * The same deletion as #window's, in one statement: times never decrease along `seq`,
   * so the hits that left the window are the oldest ones, at most MAX_DELETES_PER_CALL of them.
   */
  #deleteExpired(type: EndpointType, now: number, windowSeconds: number): void {
    this.#sql.exec(
      `DELETE FROM hits WHERE endpoint_type = ?1 AND at <= ?2
         AND seq < (SELECT seq FROM hits WHERE endpoint_type = ?1 ORDER BY seq LIMIT 1) + ?3`,
      type,
      now - windowSeconds * 1000,
      MAX_DELETES_PER_CALL,
    );
  }

  /** The hits of `type` inside the window at `now`, after deleting (some of) those that left it. */
  #window(type: EndpointType, now: number, windowSeconds: number): WindowLog & { newest: Hit | undefined } {
    // One statement: the newest hit, the oldest still inside the window (by hits_by_time), the oldest stored.
    const found = this.#sql
      .exec<{ newest_seq: number; newest_at: number; live_seq: number | null; live_at: number | null; oldest_seq: number }>(
        `SELECT newest.seq AS newest_seq, newest.at AS newest_at, live.seq AS live_seq, live.at AS live_at,
                (SELECT seq FROM hits WHERE endpoint_type = ?1 ORDER BY seq LIMIT 1) AS oldest_seq
         FROM (SELECT seq, at FROM hits WHERE endpoint_type = ?1 ORDER BY seq DESC LIMIT 1) AS newest
         LEFT JOIN (SELECT seq, at FROM hits WHERE endpoint_type = ?1 AND at > ?2 ORDER BY at LIMIT 1) AS live ON 1`,
        type,
        now - windowSeconds * 1000,
      )
      .toArray()[0];
    if (!found) return { count: 0, at: () => now, newest: undefined };
    const newest = { seq: found.newest_seq, at: found.newest_at };
    const firstLive = found.live_seq;
    const deleteBelow = Math.min(firstLive ?? newest.seq + 1, found.oldest_seq + MAX_DELETES_PER_CALL);
    if (deleteBelow > found.oldest_seq) this.#sql.exec("DELETE FROM hits WHERE endpoint_type = ? AND seq < ?", type, deleteBelow);
    if (firstLive === null || found.live_at === null) return { count: 0, at: () => now, newest };
    const firstAt = found.live_at;
    return {
      count: newest.seq - firstLive + 1,
      at: (index) =>
        index === 0
          ? firstAt
          : this.#sql.exec<Pick<Hit, "at">>("SELECT at FROM hits WHERE endpoint_type = ? AND seq = ?", type, firstLive + index).one().at,
      newest,
    };
  }

  #record(type: EndpointType, now: number, newest: Hit | undefined): void {
    // Times never decrease along `seq` (a clock step back is recorded as the newest time),
    // so deleting the oldest by time deletes a prefix of the sequence and leaves no gaps.
    this.#sql.exec(
      "INSERT INTO hits (endpoint_type, seq, at) VALUES (?, ?, ?)",
      type,
      newest ? newest.seq + 1 : 0,
      Math.max(now, newest?.at ?? now),
    );
  }
}
