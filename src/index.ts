import { app } from "./app";
import { itemMessageSchema } from "./batch/item-message";
import { webhookMessageSchema } from "./batch/webhook-message";
import { log } from "./log";
import { consumeDeadLetters, consumeItems } from "./queue/consumer";
import { QUEUES } from "./queue/names";
import { type QueueConsumer, validatingConsumer } from "./queue/validating-consumer";
import { abandonWebhooks, deliverWebhooks } from "./queue/webhook-consumer";

export { Account } from "./account/account";
export { ContactInfoBatch } from "./batch/contact-info-batch";
export { IdempotencyStore } from "./idempotency/idempotency-store";
export { RateLimiter } from "./rate-limit/rate-limiter";
export { VendorGovernor } from "./vendor-governor/vendor-governor";
export { WebhookSender } from "./webhooks/webhook-sender";

const consumers = new Map<string, QueueConsumer>([
  [QUEUES.items, validatingConsumer(itemMessageSchema, consumeItems)],
  [QUEUES.itemsDeadLetter, validatingConsumer(itemMessageSchema, consumeDeadLetters)],
  [QUEUES.webhooks, validatingConsumer(webhookMessageSchema, deliverWebhooks)],
  [QUEUES.webhooksDeadLetter, validatingConsumer(webhookMessageSchema, abandonWebhooks)],
]);

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    const consume = consumers.get(batch.queue);
    if (consume) return consume(batch, env);
    // A queue bound in wrangler.toml but unknown here: leave its messages for a fixed deploy.
    log("unknown_queue", { queue: batch.queue, messages: batch.messages.length });
    batch.retryAll();
  },
} satisfies ExportedHandler<Env, unknown>;
