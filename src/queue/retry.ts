import type { Config } from "../config";
import { retryDelaySeconds } from "./backoff";

// Queues refuse longer delays.
const MAX_QUEUE_DELAY_SECONDS = 43_200;

type RetryDelays = Pick<Config, "retryBaseDelaySeconds" | "retryMaxDelaySeconds">;

/** The wait before a message's next attempt: its backoff, or the upstream's Retry-After if longer, within what Queues accept. */
export function queueRetryDelaySeconds(attempts: number, delays: RetryDelays, retryAfterSeconds = 0, random = Math.random): number {
  const backoff = retryDelaySeconds(attempts, delays.retryBaseDelaySeconds, delays.retryMaxDelaySeconds, random);
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(backoff, retryAfterSeconds));
}

/** Hands a message back to its queue for a later attempt: how every consumer retries. */
export function retryLater(message: Message<unknown>, delays: RetryDelays, retryAfterSeconds?: number): void {
  message.retry({ delaySeconds: queueRetryDelaySeconds(message.attempts, delays, retryAfterSeconds) });
}
