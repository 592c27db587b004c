import type { WindowUsage } from "../rate-limit/sliding-window";

// Keys this isolate remembers it was told were over mcp_protocol, at most this many (the oldest go first).
const MAX_REMEMBERED = 10_000;

/**
 * An isolate's memory of the keys its limiter refused for mcp_protocol. A refusal says when the oldest
 * counted request leaves the window (resetSeconds, rounded up to a second); until then nothing can be
 * allowed, and a refused request counts nothing, so the door refuses the key's protocol requests itself,
 * without a call to the limiter, until a second before that: it never refuses one the limiter would
 * allow. This is what keeps a flood's refusals cheap for everyone else on the limiter and the runtime.
 */
export class RecentRefusals {
  readonly #refused = new Map<string, { usage: WindowUsage; freesAt: number }>();

  /** The refusal still in force for `keyId` at `now`, its resetSeconds counted from `now`; none if none. */
  refused(keyId: string, now: number): WindowUsage | undefined {
    const known = this.#refused.get(keyId);
    if (!known) return undefined;
    if (now >= known.freesAt - 1000) {
      this.#refused.delete(keyId);
      return undefined;
    }
    return { ...known.usage, resetSeconds: Math.max(1, Math.ceil((known.freesAt - now) / 1000)) };
  }

  note(keyId: string, usage: WindowUsage, now: number): void {
    if (this.#refused.size >= MAX_REMEMBERED) {
      const oldest = this.#refused.keys().next().value;
      if (oldest !== undefined) this.#refused.delete(oldest);
    }
    this.#refused.delete(keyId);
    this.#refused.set(keyId, { usage, freesAt: now + usage.resetSeconds * 1000 });
  }
}
