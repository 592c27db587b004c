import { app } from "./app";
import { log } from "./log";
import { consumeDeadLetters, consumeItems } from "./queue/consumer";
import type { ItemMessage } from "./queue/item-message";
import { QUEUES } from "./queue/names";
import { abandonWebhooks, deliverWebhooks, type WebhookMessage } from "./webhooks/delivery";

export { ContactInfoBatch } from "./batch/contact-info-batch";
export { IdempotencyStore } from "./idempotency/idempotency-store";
export { RateLimiter } from "./rate-limit/rate-limiter";
export { WebhookSender } from "./webhooks/webhook-sender";

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    switch (batch.queue) {
      case QUEUES.items:
        return consumeItems(batch as MessageBatch<ItemMessage>, env);
      case QUEUES.itemsDeadLetter:
        return consumeDeadLetters(batch as MessageBatch<ItemMessage>, env);
      case QUEUES.webhooks:
        return deliverWebhooks(batch as MessageBatch<WebhookMessage>, env);
      case QUEUES.webhooksDeadLetter:
        return abandonWebhooks(batch as MessageBatch<WebhookMessage>, env);
      default:
        // A queue bound in wrangler.toml but unknown here: leave its messages for a fixed deploy.
        log("unknown_queue", { queue: batch.queue, messages: batch.messages.length });
        batch.retryAll();
    }
  },
} satisfies ExportedHandler<Env, ItemMessage | WebhookMessage>;
