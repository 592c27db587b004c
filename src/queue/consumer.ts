import type { ItemOutcome } from "../batch/status";
import { batchStub } from "../batch/stub";
import { type Config, readConfig } from "../config";
import { normalizePerson } from "../contact-info/person";
import type { Environment } from "../environment";
import { enrichItem, type Resolution } from "../enrichment/enrich-item";
import { providersFor } from "../enrichment/providers";
import type { ContactProvider } from "../enrichment/provider";
import { kvResultCache, resultCacheKey } from "../enrichment/result-cache";
import { log, logError } from "../log";
import { retryDelaySeconds } from "./backoff";
import type { ItemMessage } from "./item-message";

type ItemQueueMessage = Message<ItemMessage>;

// Queues refuse longer delays.
const MAX_QUEUE_DELAY_SECONDS = 43_200;

function groupByBatch(messages: readonly ItemQueueMessage[]): Map<string, ItemQueueMessage[]> {
  const groups = new Map<string, ItemQueueMessage[]>();
  for (const message of messages) {
    const group = groups.get(message.body.batchId);
    if (group) group.push(message);
    else groups.set(message.body.batchId, [message]);
  }
  return groups;
}

async function resolve(message: ItemQueueMessage, env: Env, config: Config, providers: ContactProvider[]): Promise<Resolution> {
  const { environment, fields, input } = message.body;
  const person = normalizePerson(input);
  const { enrichment } = config;
  // Only live results are cached: the sandbox is free, and a cache would hide its reserved behaviours.
  const cache =
    environment === "live"
      ? {
          store: kvResultCache(env.RESULT_CACHE, enrichment.resultCacheTtlSeconds, enrichment.resultCacheNotFoundTtlSeconds),
          key: await resultCacheKey(environment, fields, person),
        }
      : undefined;
  return enrichItem(
    { person, fields, attempt: message.attempts },
    { providers, cache, satisfiedConfidence: enrichment.satisfiedConfidence, maxAttempts: config.itemMaxAttempts },
  );
}

/**
 * Enriches every message, then records a whole batch-group with one Durable
 * Object call. An item whose providers failed transiently is retried with
 * backoff (or the upstream's Retry-After, if longer) until ITEM_MAX_ATTEMPTS;
 * an unexpected error is retried too, and past the queue's max_retries the
 * dead-letter consumer marks the item failed.
 */
export async function consumeItems(batch: MessageBatch<ItemMessage>, env: Env): Promise<void> {
  const config = readConfig(env);
  const providers = new Map<Environment, ContactProvider[]>();
  const providersOf = (environment: Environment) =>
    providers.get(environment) ?? providers.set(environment, providersFor(environment, env, config)).get(environment)!;
  const retry = (message: ItemQueueMessage, retryAfterSeconds = 0) => {
    const backoff = retryDelaySeconds(message.attempts, config.retryBaseDelaySeconds, config.retryMaxDelaySeconds);
    message.retry({ delaySeconds: Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(backoff, retryAfterSeconds)) });
  };

  await Promise.all(
    [...groupByBatch(batch.messages)].map(async ([batchId, messages]) => {
      const started = Date.now();
      const done: { message: ItemQueueMessage; outcome: ItemOutcome }[] = [];
      const providerOutcomes = new Map<string, number>();
      await Promise.all(
        messages.map(async (message) => {
          const { index, environment } = message.body;
          let resolution: Resolution;
          try {
            resolution = await resolve(message, env, config, providersOf(environment));
          } catch (error) {
            logError("item_attempt_failed", error, { batchId, index, attempt: message.attempts });
            retry(message);
            return;
          }
          for (const { provider, outcome } of resolution.reports) {
            providerOutcomes.set(`${provider}:${outcome}`, (providerOutcomes.get(`${provider}:${outcome}`) ?? 0) + 1);
          }
          if (resolution.kind === "retry") {
            retry(message, resolution.retryAfterSeconds);
          } else if (resolution.kind === "failed") {
            done.push({ message, outcome: { index, status: "failed", error: resolution.error } });
          } else {
            const { emails, phones, fromCache } = resolution;
            const outcome = emails.length + phones.length > 0 ? "found" : "not_found";
            done.push({ message, outcome: { index, status: "completed", outcome, emails, phones, fromCache } });
          }
        }),
      );
      const providerCounts = Object.fromEntries(providerOutcomes);
      const retried = messages.length - done.length;
      if (done.length === 0) {
        log("items_retried", { batchId, items: messages.length, ...providerCounts });
        return;
      }
      try {
        const { recorded } = await batchStub(env, batchId).record(done.map(({ outcome }) => outcome));
        for (const { message } of done) message.ack();
        log("items_recorded", { batchId, received: messages.length, recorded, retried, ms: Date.now() - started, ...providerCounts });
      } catch (error) {
        logError("items_record_failed", error, { batchId, items: done.length });
        for (const { message } of done) retry(message);
      }
    }),
  );
}

/** Items whose consumer kept crashing: recorded as `failed`, so the batch still completes. */
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
