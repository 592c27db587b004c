import { backoff } from "../base/backoff";
import type { Config } from "../base/config";

/**
 * The longest Retry-After honoured: a source asking for more is asked again after
 * an hour (it counts `unavailable` for the attempt, as any source that asked to
 * wait does). Queues would take up to 12 h, but an item should not sit that long on one
 * source's word while the others could answer.
 */
export const MAX_RETRY_AFTER_SECONDS = 3_600;

// Queues refuse longer delays.
const MAX_QUEUE_DELAY_SECONDS = 43_200;

type RetryDelays = Pick<Config, "retryBaseDelaySeconds" | "retryMaxDelaySeconds">;

/** The wait before a message's next attempt: its backoff, or the upstream's Retry-After if longer, within what Queues accept. */
export function queueRetryDelaySeconds(
  attempts: number,
  delays: RetryDelays,
  retryAfterSeconds = 0,
  random = Math.random,
): number {
  const delay = backoff({ baseSeconds: delays.retryBaseDelaySeconds, maxSeconds: delays.retryMaxDelaySeconds })(
    attempts,
    random,
  );
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(delay, Math.min(MAX_RETRY_AFTER_SECONDS, retryAfterSeconds)));
}

/** Hands a message back to its queue for a later attempt: how every consumer retries. Answers the delay, in seconds. */
export function retryLater(message: Message<unknown>, delays: RetryDelays, retryAfterSeconds?: number): number {
  const delaySeconds = queueRetryDelaySeconds(message.attempts, delays, retryAfterSeconds);
  message.retry({ delaySeconds });
  return delaySeconds;
}
