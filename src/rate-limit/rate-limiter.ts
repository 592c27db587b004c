import { DurableObject } from "cloudflare:workers";
import { ENDPOINT_TYPES, type EndpointType, type RateLimitSetting } from "./endpoint-types";
import { migrate } from "./schema";
import { type Decision, decide, type WindowLog, type WindowUsage, windowUsage } from "./sliding-window";

export interface ConsumeResult {
  decision: Decision;
  /** Every endpoint type's usage after this request, for GET /me/rate-limits. */
  usage: Record<EndpointType, WindowUsage>;
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

  consume(endpointType: EndpointType, limits: Record<EndpointType, RateLimitSetting>): ConsumeResult {
    const now = Date.now();
    const logs = Object.fromEntries(ENDPOINT_TYPES.map((type) => [type, this.#window(type, now, limits[type].windowSeconds)]));
    const decision = decide(logs[endpointType]!, now, limits[endpointType]);
    if (decision.allowed) this.#record(endpointType, now, logs[endpointType]!.newest);
    const usage = Object.fromEntries(
      ENDPOINT_TYPES.map((type) => [type, type === endpointType ? decision : windowUsage(logs[type]!, now, limits[type])]),
    ) as Record<EndpointType, WindowUsage>;
    return { decision, usage };
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
