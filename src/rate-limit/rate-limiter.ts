import { DurableObject } from "cloudflare:workers";
import { ENDPOINT_TYPES, type EndpointType, type RateLimitSetting } from "./endpoint-types";
import { type Decision, SlidingWindowLog, type WindowUsage } from "./sliding-window";

export interface ConsumeResult {
  decision: Decision;
  /** Every endpoint type's usage after this request, for GET /me/rate-limits. */
  usage: Record<EndpointType, WindowUsage>;
}

/**
 * The request counts of one API key, one sliding window per endpoint type.
 * A Durable Object runs one call at a time and `consume` never awaits, so a
 * burst of concurrent requests is counted exactly. Hits are kept in memory and
 * written through to SQLite, so an eviction forgets nothing.
 */
export class RateLimiter extends DurableObject<Env> {
  readonly #sql: SqlStorage;
  readonly #windows = new Map<EndpointType, SlidingWindowLog>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#sql.exec("CREATE TABLE IF NOT EXISTS hits (endpoint_type TEXT NOT NULL, at INTEGER NOT NULL)");
    const stored = new Map<EndpointType, number[]>();
    for (const { endpoint_type, at } of this.#sql.exec<{ endpoint_type: EndpointType; at: number }>("SELECT endpoint_type, at FROM hits")) {
      stored.set(endpoint_type, [...(stored.get(endpoint_type) ?? []), at]);
    }
    for (const type of ENDPOINT_TYPES) this.#windows.set(type, new SlidingWindowLog(stored.get(type)));
  }

  consume(endpointType: EndpointType, limits: Record<EndpointType, RateLimitSetting>, now = Date.now()): ConsumeResult {
    const window = this.#windows.get(endpointType)!;
    const setting = limits[endpointType];
    if (window.expire(now, setting.windowSeconds) > 0) {
      this.#sql.exec("DELETE FROM hits WHERE endpoint_type = ? AND at <= ?", endpointType, now - setting.windowSeconds * 1000);
    }
    const decision = window.consume(now, setting);
    if (decision.allowed) this.#sql.exec("INSERT INTO hits (endpoint_type, at) VALUES (?, ?)", endpointType, now);
    const usage = Object.fromEntries(
      ENDPOINT_TYPES.map((type) => [type, type === endpointType ? decision : this.#windows.get(type)!.usage(now, limits[type])]),
    ) as Record<EndpointType, WindowUsage>;
    return { decision, usage };
  }
}
