import { batchStub } from "../batch/stub";
import type { ItemOutcome } from "../batch/status";
import { readConfig } from "../config";
import { normalizePerson } from "../contact-info/person";
import { sourceFor } from "../enrichment/sources";
import { log, logError } from "../log";
import { retryDelaySeconds } from "./backoff";
import type { ItemMessage } from "./item-message";

type ItemQueueMessage = Message<ItemMessage>;

export const isDeadLetterQueue = (queueName: string): boolean => queueName.endsWith("-dlq");

function groupByBatch(messages: readonly ItemQueueMessage[]): Map<string, ItemQueueMessage[]> {
  const groups = new Map<string, ItemQueueMessage[]>();
  for (const message of messages) {
    const group = groups.get(message.body.batchId);
    if (group) group.push(message);
    else groups.set(message.body.batchId, [message]);
  }
  return groups;
}

/**
 * Enriches every message, then records a whole batch-group with one Durable
 * Object call. A message that failed, or whose result could not be recorded,
 * is retried with backoff; once the queue's retries run out it goes to the
 * dead-letter queue, whose consumer marks the item failed.
 */
export async function consumeItems(batch: MessageBatch<ItemMessage>, env: Env): Promise<void> {
  const config = readConfig(env);
  const retry = (message: ItemQueueMessage) =>
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts, config.retryBaseDelaySeconds, config.retryMaxDelaySeconds) });

  await Promise.all(
    [...groupByBatch(batch.messages)].map(async ([batchId, messages]) => {
      const started = Date.now();
      const done: { message: ItemQueueMessage; outcome: ItemOutcome }[] = [];
      await Promise.all(
        messages.map(async (message) => {
          const { index, environment, fields, input } = message.body;
          try {
            const source = sourceFor(environment);
            const found = await source.find({ person: normalizePerson(input), fields, attempt: message.attempts });
            const outcome = found.emails.length + found.phones.length > 0 ? "found" : "not_found";
            done.push({ message, outcome: { index, status: "completed", outcome, ...found } });
          } catch (error) {
            // Expected now and then (flaky upstreams); the retry is the handling.
            logError("item_attempt_failed", error, { batchId, index, attempt: message.attempts }, "warn");
            retry(message);
          }
        }),
      );
      if (done.length === 0) return;
      try {
        const { recorded } = await batchStub(env, batchId).record(done.map(({ outcome }) => outcome));
        for (const { message } of done) message.ack();
        log("items_recorded", { batchId, received: messages.length, recorded, retried: messages.length - done.length, ms: Date.now() - started });
      } catch (error) {
        logError("items_record_failed", error, { batchId, items: done.length });
        for (const { message } of done) retry(message);
      }
    }),
  );
}

/** Items whose every attempt failed: recorded as `failed`, so the batch still completes. */
export async function consumeDeadLetters(batch: MessageBatch<ItemMessage>, env: Env): Promise<void> {
  await Promise.all(
    [...groupByBatch(batch.messages)].map(async ([batchId, messages]) => {
      const outcomes: ItemOutcome[] = messages.map(({ body }) => ({
        index: body.index,
        status: "failed",
        error: { code: "processing_failed", message: "the item could not be processed: every attempt failed" },
      }));
      try {
        const { recorded } = await batchStub(env, batchId).record(outcomes);
        for (const message of messages) message.ack();
        log("items_dead_lettered", { batchId, items: messages.length, recorded });
      } catch (error) {
        logError("dead_letter_record_failed", error, { batchId, items: messages.length });
        for (const message of messages) message.retry();
      }
    }),
  );
}
