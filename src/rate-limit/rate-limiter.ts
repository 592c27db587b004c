import { DurableObject } from "cloudflare:workers";
import { ENDPOINT_TYPES, type EndpointType, type RateLimitSetting } from "./endpoint-types";
import { type Decision, SlidingWindowLog, type WindowUsage } from "./sliding-window";

export interface ConsumeResult {
  decision: Decision;
  /** Every endpoint type's usage after this request, for GET /me/rate-limits. */
  usage: Record<EndpointType, WindowUsage>;
}

// One storage key per allowed request: "hit:<endpoint type>:<ms>:<sequence>".
const hitKey = (type: EndpointType, at: number, sequence: number) => `hit:${type}:${at}:${sequence}`;

/**
 * The request counts of one API key, one sliding window per endpoint type.
 * A Durable Object runs one call at a time and `consume` decides without
 * awaiting, so a burst of concurrent requests is counted exactly, in memory.
 * Each allowed request is also written to storage so a restart forgets
 * nothing; the write does not hold back the answer (allowUnconfirmed), which
 * keeps the limiter off the latency path. The cost: if the machine fails within
 * milliseconds of a request, that one request may be forgotten.
 */
export class RateLimiter extends DurableObject<Env> {
  readonly #windows = new Map<EndpointType, SlidingWindowLog>();
  readonly #keys = new Map<EndpointType, string[]>();
  #sequence = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      const stored = await ctx.storage.list<number>({ prefix: "hit:" });
      const byType = new Map<EndpointType, { key: string; at: number }[]>();
      for (const [key, at] of stored) {
        const type = key.split(":")[1] as EndpointType;
        byType.set(type, [...(byType.get(type) ?? []), { key, at }]);
      }
      for (const type of ENDPOINT_TYPES) {
        const hits = (byType.get(type) ?? []).sort((a, b) => a.at - b.at);
        this.#windows.set(type, new SlidingWindowLog(hits.map((hit) => hit.at)));
        this.#keys.set(type, hits.map((hit) => hit.key));
      }
    });
  }

  consume(endpointType: EndpointType, limits: Record<EndpointType, RateLimitSetting>, now = Date.now()): ConsumeResult {
    const window = this.#windows.get(endpointType)!;
    const keys = this.#keys.get(endpointType)!;
    const expired = window.expire(now, limits[endpointType].windowSeconds);
    if (expired > 0) void this.ctx.storage.delete(keys.splice(0, expired), { allowUnconfirmed: true });
    const decision = window.consume(now, limits[endpointType]);
    if (decision.allowed) {
      const key = hitKey(endpointType, now, this.#sequence++);
      keys.push(key);
      void this.ctx.storage.put(key, now, { allowUnconfirmed: true });
    }
    const usage = Object.fromEntries(
      ENDPOINT_TYPES.map((type) => [type, type === endpointType ? decision : this.#windows.get(type)!.usage(now, limits[type])]),
    ) as Record<EndpointType, WindowUsage>;
    return { decision, usage };
  }
}
