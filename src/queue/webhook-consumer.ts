import { readConfig } from "../base/config";
import { logError } from "../base/log";
import { batchStub } from "../batch/stub";
import type { WebhookMessage } from "../queue-messages/webhook-message";
import { webhookSender } from "../webhooks/webhook-sender";
import { retryLater } from "./retry";

/**
 * Hands each webhook delivery to its batch's WebhookSender and acks.
 * The consumer never calls a receiver itself: a queue consumer handles one
 * batch of messages at a time (always under Miniflare, and on Cloudflare until
 * concurrency scales up), so a slow receiver here would hold back every
 * delivery queued behind it.
 */
export async function deliverWebhooks(messages: readonly Message<WebhookMessage>[], env: Env): Promise<void> {
  const config = readConfig(env);
  await Promise.all(
    messages.map(async (message) => {
      const { batchId, delivery } = message.body;
      try {
        await webhookSender(env, batchId).start(batchId, delivery);
        message.ack();
      } catch (error) {
        logError("webhook_handoff_error", error, { batchId, attempt: message.attempts });
        retryLater(message, config);
      }
    }),
  );
}

/** Deliveries whose hand-off kept failing: the batch shows the webhook failed. */
export async function abandonWebhooks(messages: readonly Message<WebhookMessage>[], env: Env): Promise<void> {
  const config = readConfig(env);
  for (const message of messages) {
    try {
      await batchStub(env, message.body.batchId).abandonWebhook(message.body.delivery);
      message.ack();
    } catch (error) {
      logError("webhook_abandon_failed", error, { batchId: message.body.batchId, attempt: message.attempts });
      retryLater(message, config);
    }
  }
}
