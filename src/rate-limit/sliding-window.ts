import type { RateLimitSetting } from "./endpoint-types";

export interface WindowUsage {
  limit: number;
  windowSeconds: number;
  used: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window and frees one unit; 0 when none is counted. */
  resetSeconds: number;
}

export interface Decision extends WindowUsage {
  allowed: boolean;
}

/**
 * An exact sliding-window log: at most `limit` requests are allowed in any span
 * of `windowSeconds`, with no burst at window boundaries (unlike fixed windows
 * or token buckets). It keeps the times of allowed requests only, so it holds at
 * most `limit` entries. Time comes from the caller, so tests need no sleeping.
 */
export class SlidingWindowLog {
  /** Millisecond times of allowed requests, oldest first. */
  readonly #hits: number[];

  constructor(hits: number[] = []) {
    this.#hits = [...hits].sort((a, b) => a - b);
  }

  get hits(): readonly number[] {
    return this.#hits;
  }

  /** Drops hits that left the window; returns how many were dropped. */
  expire(now: number, windowSeconds: number): number {
    const cutoff = now - windowSeconds * 1000;
    let expired = 0;
    while (expired < this.#hits.length && this.#hits[expired]! <= cutoff) expired++;
    this.#hits.splice(0, expired);
    return expired;
  }

  usage(now: number, { limit, windowSeconds }: RateLimitSetting): WindowUsage {
    this.expire(now, windowSeconds);
    const used = this.#hits.length;
    const oldest = this.#hits[0];
    const resetSeconds = oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + windowSeconds * 1000 - now) / 1000));
    return { limit, windowSeconds, used, remaining: Math.max(0, limit - used), resetSeconds };
  }

  /** Counts one request if the window has room. */
  consume(now: number, setting: RateLimitSetting): Decision {
    const before = this.usage(now, setting);
    if (before.remaining === 0) return { ...before, allowed: false };
    this.#hits.push(now);
    return { ...this.usage(now, setting), allowed: true };
  }
}
