import * as z from "zod";

/** An Idempotency-Key's format (the middleware checks it; the OpenAPI document states it). */
export const MAX_KEY_LENGTH = 255;
// Visible ASCII: what the draft's sf-string allows, minus quotes and backslashes.
export const KEY_PATTERN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * How long a request that has begun holds its Idempotency-Key. A retry inside
 * the hold waits (409); after it, the first request is taken to have died and
 * the retry resumes its work (the same batch id).
 */
export const HOLD_MS = 60_000;

/** The answer kept for replay. Validated when read back, as everything read from storage is. */
export const storedResponseSchema = z.object({
  status: z.number().int(),
  body: z.string(),
  headers: z.record(z.string(), z.string()),
});
export type StoredResponse = z.infer<typeof storedResponseSchema>;

/** One Idempotency-Key's record, as the store keeps it. */
export interface KeyRecord {
  fingerprint: string;
  /** Chosen when the key is first taken, before the batch exists, so a retry after a crash finds it. */
  batchId: string;
  response: StoredResponse | null;
  /** Until this time (ms) the request that took the key is presumed still running. */
  heldUntil: number;
}

export type BeginDecision =
  | { kind: "start" }
  | { kind: "resume"; batchId: string }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "in_progress"; retryAfterSeconds: number }
  | { kind: "mismatch" };

/** What a request carrying an Idempotency-Key does, given the key's record (if any) at `now`. */
export function decideBegin(record: KeyRecord | undefined, fingerprint: string, now: number): BeginDecision {
  if (!record) return { kind: "start" };
  if (record.fingerprint !== fingerprint) return { kind: "mismatch" };
  if (record.response) return { kind: "replay", response: record.response };
  // Rounded up: a client that waits exactly this long finds the hold released.
  if (now < record.heldUntil)
    return { kind: "in_progress", retryAfterSeconds: Math.ceil((record.heldUntil - now) / 1000) };
  return { kind: "resume", batchId: record.batchId };
}
