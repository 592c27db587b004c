import type { WebhookState } from "./status";

// Re-drive: the batch object resends work whose queue message went missing (a
// consumer that died past max_retries, a platform incident, a local restart).
// These are the decisions; the batch object only reads the facts and acts.

/** Times one item may be put on the queue: the fan-out, then at most two re-drives. */
export const MAX_ITEM_ENQUEUES = 3;
/** Times the batch.completed webhook may be put on the queue, likewise. */
export const MAX_WEBHOOK_ENQUEUES = 3;

/** Milliseconds since the epoch of an ISO 8601 time, or null. */
export const millis = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));

/** The earliest of the times given, or null when there is none. */
export function earliest(...times: (number | null)[]): number | null {
  const known = times.filter((time): time is number => time !== null);
  return known.length === 0 ? null : Math.min(...known);
}

/** The latest of the times given, or null when there is none. */
export function latest(...times: (number | null)[]): number | null {
  const known = times.filter((time): time is number => time !== null);
  return known.length === 0 ? null : Math.max(...known);
}

/** Pending items last enqueued at or before this time are due for a re-drive. */
export function redriveCutoff(now: number, redriveAfterSeconds: number): number {
  return now - redriveAfterSeconds * 1000;
}

/** When the next item re-drive is due, given the oldest last-enqueue time of a pending item. */
export function nextItemRedrive(oldestEnqueuedAt: number | null, redriveAfterSeconds: number): number | null {
  return oldestEnqueuedAt === null ? null : oldestEnqueuedAt + redriveAfterSeconds * 1000;
}

/** A stuck item is resent while it has enqueues left; past the bound it fails. */
export function itemRedrive(enqueues: number): "resend" | "fail" {
  return enqueues < MAX_ITEM_ENQUEUES ? "resend" : "fail";
}

/**
 * The plan of an open batch whose fan-out is done: fail what is left at the
 * deadline, re-drive when the oldest pending item is due, otherwise sleep until
 * the first of the two.
 */
export type OpenBatchPlan = { kind: "fail_remaining" } | { kind: "redrive" } | { kind: "sleep"; until: number };

export function planOpenBatch(facts: { now: number; deadline: number; oldestEnqueuedAt: number | null; redriveAfterSeconds: number }): OpenBatchPlan {
  if (facts.now >= facts.deadline) return { kind: "fail_remaining" };
  const redrive = nextItemRedrive(facts.oldestEnqueuedAt, facts.redriveAfterSeconds);
  if (redrive !== null && facts.now >= redrive) return { kind: "redrive" };
  return { kind: "sleep", until: earliest(facts.deadline, redrive)! };
}

export interface WebhookFacts {
  state: WebhookState | null;
  /** The last time it was put on the queue, or an attempt was recorded. */
  lastActivityAt: number | null;
  attempts: number;
  enqueues: number;
}

/**
 * A webhook `queued` with no activity for longer than the longest backoff between
 * attempts lost its message: resend it while attempts and enqueues are left, else
 * it fails. `check` is when to look again.
 */
export type WebhookPlan = { kind: "none" } | { kind: "check"; at: number } | { kind: "resend" } | { kind: "fail" };

export function planWebhook(webhook: WebhookFacts, now: number, limits: { redriveAfterSeconds: number; maxAttempts: number }): WebhookPlan {
  if (webhook.state !== "queued") return { kind: "none" };
  const due = (webhook.lastActivityAt ?? 0) + limits.redriveAfterSeconds * 1000;
  if (now < due) return { kind: "check", at: due };
  return webhook.attempts < limits.maxAttempts && webhook.enqueues < MAX_WEBHOOK_ENQUEUES ? { kind: "resend" } : { kind: "fail" };
}
