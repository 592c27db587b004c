import { DurableObject } from "cloudflare:workers";
import { log } from "../base/log";
import type { RateWindow } from "../base/vendor-limits";
import { decideLease, dropExpired, type Grant, type LeaseDecision, MAX_TOKENS_PER_LEASE } from "./lease-decision";

const PAUSED_UNTIL_KEY = "paused_until";

/**
 * The shared call budget of one vendor API key (one object per vendor and key hash,
 * see `governorStub`): every queue consumer leases its calls' tokens here, a block at
 * a time, and reports the vendor's 429s, which pause the vendor for everyone.
 *
 * The grants are kept in memory, not SQLite: a decision is then one synchronous
 * read of an array, with no write to confirm before answering, which is what lets
 * one object answer thousands of leases a second (docs/architecture.md). What an
 * eviction forgets is at most one window of grants (a minute for most vendors):
 * an object evicted mid-run may grant one window's worth again, and the vendor's
 * next 429 pauses everyone. The pause itself is stored (it is written only on a
 * 429), so it survives an eviction.
 */
export class VendorGovernor extends DurableObject<Env> {
  #grants: Grant[] = [];
  #pausedUntil: number;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#pausedUntil = Number(ctx.storage.kv.get(PAUSED_UNTIL_KEY) ?? 0);
  }

  /** Up to `want` call tokens now, or when to ask again; the decision is `decideLease`. */
  lease(want: number, windows: readonly RateWindow[]): LeaseDecision {
    const now = Date.now();
    const asked = Math.max(1, Math.min(MAX_TOKENS_PER_LEASE, Math.floor(want)));
    this.#grants = dropExpired(this.#grants, now, windows);
    const decision = decideLease(this.#grants, now, asked, windows, this.#pausedUntil);
    const last = this.#grants.at(-1);
    // Grants of one millisecond are one entry: the log stays within a window's milliseconds (and its limit).
    if (decision.granted > 0 && last?.at === now) last.count += decision.granted;
    else if (decision.granted > 0) this.#grants.push({ at: now, count: decision.granted });
    return decision;
  }

  /** The vendor answered 429 with a retry time: nobody calls it for `retryAfterSeconds`. `vendor` names it in the log. */
  pause(retryAfterSeconds: number, vendor: string): void {
    const until = Date.now() + Math.max(0, retryAfterSeconds) * 1000;
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    this.ctx.storage.kv.put(PAUSED_UNTIL_KEY, until);
    log("vendor_paused", { vendor, seconds: retryAfterSeconds });
  }
}
