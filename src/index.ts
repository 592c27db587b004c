import { app } from "./app";
import { consumeDeadLetters, consumeItems, isDeadLetterQueue } from "./queue/consumer";
import type { ItemMessage } from "./queue/item-message";

export { ContactInfoBatch } from "./batch/contact-info-batch";
export { IdempotencyStore } from "./idempotency/idempotency-store";
export { RateLimiter } from "./rate-limit/rate-limiter";

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    if (isDeadLetterQueue(batch.queue)) await consumeDeadLetters(batch, env);
    else await consumeItems(batch, env);
  },
} satisfies ExportedHandler<Env, ItemMessage>;
