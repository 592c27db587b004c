// The rules for a customer's open event streams (GET …/{id}/events), as pure decisions:
// the RateLimiter object (one per customer and environment) keeps the leases and runs them.

/** Event streams a customer may hold open at once in one environment, all its keys together. */
export const MAX_STREAMS_PER_CUSTOMER = 10;
/** Event streams open at once on one batch: a batch's followers need not be more than a few. */
export const MAX_STREAMS_PER_BATCH = 3;
/** How often an open stream renews its lease: a revoked key's streams end within about this long. */
export const LEASE_RENEW_MS = 1000;
// A lease not renewed for this long is gone, so an isolate that died with its streams open
// frees their places within seconds; it spans a few renewals, so one slow call ends nothing.
export const LEASE_EXPIRES_MS = 5000;
// Retry-After of a refusal over a cap: a place frees when one of the customer's streams ends,
// which nobody can know in advance; by then most streams in a polling client's place would have.
export const STREAM_RETRY_AFTER_SECONDS = 15;

export interface StreamLease {
  leaseId: string;
  keyId: string;
  batchId: string;
  /** When its stream last renewed it (ms epoch); held in memory, see RateLimiter. */
  renewedAt: number;
}

export type StreamDecision =
  | { kind: "granted" }
  | { kind: "refused"; scope: "customer" | "batch"; max: number; retryAfterSeconds: number };

/** Whether one more stream on `batchId` fits the caps, given the customer's live leases. */
export function decideStream(live: readonly StreamLease[], batchId: string): StreamDecision {
  const refused = (scope: "customer" | "batch", max: number): StreamDecision => ({
    kind: "refused",
    scope,
    max,
    retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS,
  });
  if (live.length >= MAX_STREAMS_PER_CUSTOMER) return refused("customer", MAX_STREAMS_PER_CUSTOMER);
  if (live.filter((lease) => lease.batchId === batchId).length >= MAX_STREAMS_PER_BATCH)
    return refused("batch", MAX_STREAMS_PER_BATCH);
  return { kind: "granted" };
}

export type Renewal = "renewed" | "revoked" | "expired";

/**
 * What a renewal of `lease` answers at `now`: "revoked" once its key is (the stream ends at once),
 * "expired" when it is unknown or was not renewed in time (its place may be taken: the stream ends,
 * and its client reconnects for a new one).
 */
export function decideRenewal(lease: StreamLease | undefined, revoked: ReadonlySet<string>, now: number): Renewal {
  if (!lease || isExpired(lease, now)) return "expired";
  return revoked.has(lease.keyId) ? "revoked" : "renewed";
}

export const isExpired = (lease: StreamLease, now: number): boolean => now - lease.renewedAt >= LEASE_EXPIRES_MS;
