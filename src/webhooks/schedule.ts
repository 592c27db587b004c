import type { AttemptError, DeliveryStatus } from "./endpoint-events";

// The pure rules of a delivery's life: when it is tried again, when it gives up, when its endpoint is
// disabled. The hub (webhook-hub.ts) reads the facts, asks these, and writes the answer.

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * WEBHOOK_RETRY_SCHEDULE: the waits after each failed attempt, comma-separated durations ("5s,5m,2h");
 * a delivery makes one attempt more than the list is long. Null when the text is not such a list.
 */
export function parseSchedule(text: string): number[] | null {
  const parts = text.split(",").map((part) => part.trim());
  const seconds: number[] = [];
  for (const part of parts) {
    const match = /^(\d+)([smhd])$/.exec(part);
    const unit = match ? UNIT_SECONDS[match[2]!] : undefined;
    if (!match || unit === undefined) return null;
    seconds.push(Number(match[1]) * unit);
  }
  return seconds;
}

/** What one attempt's answer was: a status (null when none), and the short error when it is not a success. */
export interface AttemptResult {
  statusCode: number | null;
  error: AttemptError | null;
}

export const succeeded = ({ statusCode }: AttemptResult): boolean =>
  statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * After attempt `tries` (1 for the first) of the current schedule: the delivery's status, and when the
 * next attempt is due (epoch ms; null when none is).
 */
export function afterAttempt(
  result: AttemptResult,
  tries: number,
  scheduleSeconds: readonly number[],
  now: number,
): { status: DeliveryStatus; nextAttemptAt: number | null } {
  if (succeeded(result)) return { status: "succeeded", nextAttemptAt: null };
  if (result.error === "destination_refused") return { status: "failed", nextAttemptAt: null };
  const wait = scheduleSeconds[tries - 1];
  if (wait === undefined) return { status: "failed", nextAttemptAt: null };
  return { status: "pending", nextAttemptAt: now + wait * 1000 };
}

/**
 * An endpoint whose every attempt has failed since `failingSince` (epoch ms; null after a success)
 * is disabled once that has lasted `disableAfterSeconds`: the reason it shows, or null to keep it.
 */
export function disableReason(failingSince: number | null, now: number, disableAfterSeconds: number): string | null {
  if (failingSince === null || now - failingSince < disableAfterSeconds * 1000) return null;
  return `Every delivery failed since ${new Date(failingSince).toISOString()}: disabled automatically. Fix the receiver, enable the endpoint again (PATCH status: enabled), then recover what it missed.`;
}
