import type { ItemOutcome } from "../batch/contract";
import { batchStub } from "../batch/stub";
import { readConfig } from "../config";
import type { Resolution } from "../enrichment/enrich-item";
import { enricher } from "../enrichment/enricher";
import type { ProviderReport } from "../enrichment/waterfall";
import { log, logError } from "../log";
import type { ItemMessage } from "./item-message";
import { pendingOnly } from "./pending-only";
import { retryLater } from "./retry";

type ItemQueueMessage = Message<ItemMessage>;

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
 * Object call. An item whose providers failed transiently is retried with
 * backoff (or the upstream's Retry-After, if longer) until ITEM_MAX_ATTEMPTS;
 * an unexpected error is retried too, and past the queue's max_retries the
 * dead-letter consumer marks the item failed.
 */
export async function consumeItems(messages: readonly ItemQueueMessage[], env: Env): Promise<void> {
  const config = readConfig(env);
  const enrich = enricher(env, config);

  await Promise.all(
    [...groupByBatch(messages)].map(async ([batchId, received]) => {
      const started = Date.now();
      const group = await pendingOnly(env, batchId, received);
      if (group.length === 0) return;
      const done: { message: ItemQueueMessage; outcome: ItemOutcome }[] = [];
      const providerOutcomes = new Map<string, number>();
      const count = (reports: ProviderReport[]) => {
        for (const { name, outcome } of reports) {
          providerOutcomes.set(`${name}:${outcome}`, (providerOutcomes.get(`${name}:${outcome}`) ?? 0) + 1);
        }
      };
      await Promise.all(
        group.map(async (message) => {
          const { index } = message.body;
          let resolution: Resolution;
          try {
            resolution = await enrich({ ...message.body, attempt: message.attempts });
          } catch (error) {
            logError("item_attempt_failed", error, { batchId, index, attempt: message.attempts });
            retryLater(message, config);
            return;
          }
          count(resolution.reports);
          if (resolution.kind === "retry") retryLater(message, config, resolution.retryAfterSeconds);
          else done.push({ message, outcome: { index, ...resolution.result } });
        }),
      );
      const providerCounts = Object.fromEntries(providerOutcomes);
      const retried = group.length - done.length;
      if (done.length === 0) {
        log("items_retried", { batchId, items: group.length, ...providerCounts });
        return;
      }
      try {
        const { recorded } = await batchStub(env, batchId).record(done.map(({ outcome }) => outcome));
        for (const { message } of done) message.ack();
        log("items_recorded", { batchId, received: group.length, recorded, retried, ms: Date.now() - started, ...providerCounts });
      } catch (error) {
        logError("items_record_failed", error, { batchId, items: done.length });
        for (const { message } of done) retryLater(message, config);
      }
    }),
  );
}

/** Items whose consumer kept crashing: recorded as `failed`, so the batch still completes. */
export async function consumeDeadLetters(messages: readonly ItemQueueMessage[], env: Env): Promise<void> {
  const config = readConfig(env);
  await Promise.all(
    [...groupByBatch(messages)].map(async ([batchId, group]) => {
      const outcomes: ItemOutcome[] = group.map(({ body }) => ({
        index: body.index,
        status: "failed",
        error: { code: "processing_failed", message: "the item could not be processed: every attempt failed" },
        sources: [],
      }));
      try {
        const { recorded } = await batchStub(env, batchId).record(outcomes);
        for (const message of group) message.ack();
        log("items_dead_lettered", { batchId, items: group.length, recorded });
      } catch (error) {
        logError("dead_letter_record_failed", error, { batchId, items: group.length });
        for (const message of group) retryLater(message, config);
      }
    }),
  );
}
