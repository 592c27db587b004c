import { batchStub } from "../batch/stub";
import { readConfig } from "../config";
import { logError } from "../log";
import { retryDelaySeconds } from "../queue/backoff";
import { webhookSender } from "./webhook-sender";

export interface WebhookMessage {
  batchId: string;
}

/**
 * Hands each batch.completed delivery to its batch's WebhookSender and acks.
 * The consumer never calls a receiver itself: a queue consumer handles one
 * batch of messages at a time (always under Miniflare, and on Cloudflare until
 * concurrency scales up), so a slow receiver here would hold back every
 * delivery queued behind it.
 */
export async function deliverWebhooks(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  const config = readConfig(env);
  await Promise.all(
    batch.messages.map(async (message) => {
      const { batchId } = message.body;
      try {
        await webhookSender(env, batchId).start(batchId);
        message.ack();
      } catch (error) {
        logError("webhook_handoff_error", error, { batchId, attempt: message.attempts });
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts, config.retryBaseDelaySeconds, config.retryMaxDelaySeconds) });
      }
    }),
  );
}

/** Deliveries whose hand-off kept failing: the batch shows the webhook failed. */
export async function abandonWebhooks(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await batchStub(env, message.body.batchId).abandonWebhook();
    message.ack();
  }
}
