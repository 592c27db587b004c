import type { ItemMessage, PersonItem } from "../batch/item-message";
import { batchStub } from "../batch/stub";
import { jurisdictionOfBatch } from "../batch-id";
import { readConfig } from "../config";
import type { ItemDeferral, ItemOutcome } from "../contact-info/batch-contract";
import type { Contacts } from "../contact-info/contact";
import { itemErrors } from "../contact-info/item-errors";
import type { Resolution } from "../enrichment/enrich-item";
import { enricher } from "../enrichment/enricher";
import type { ProviderReport } from "../enrichment/waterfall";
import { log, logError } from "../log";
import { resendHeld } from "./held-resend";
import { type PendingMessage, pendingOnly } from "./pending-only";
import { MAX_RETRY_AFTER_SECONDS, queueRetryDelaySeconds, retryLater } from "./retry";
import { suppressedOutcomes } from "./suppression-check";

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
 * Enriches every item of every message, then records a whole batch-group with
 * one Durable Object call. A message is acked once all its items are recorded.
 * One whose item's providers failed transiently is retried (its recorded items
 * are skipped then, see pendingOnly) with backoff, or the longest Retry-After
 * its items' upstreams asked for (at most MAX_RETRY_AFTER_SECONDS), until
 * ITEM_MAX_ATTEMPTS, and the batch learns when they are due; an unexpected error
 * (a fault of ours) is retried too, and fails the item `processing_failed` at
 * ITEM_MAX_ATTEMPTS, so only messages whose consumer crashed outlive the queue's
 * max_retries and reach the dead-letter consumer, which marks their items failed. A message whose items only our rate governor
 * held back (no vendor was asked) is sent again instead, its attempt not counted.
 */
export async function consumeItems(messages: readonly ItemQueueMessage[], env: Env): Promise<void> {
  const config = readConfig(env);
  const enrich = enricher(env, config);

  await Promise.all(
    [...groupByBatch(messages)].map(async ([batchId, group]) => {
      const started = Date.now();
      // Outside a jurisdiction the messages carry their people: the do-not-enrich check runs beside
      // the pending check, one round trip instead of two, and keeps the outcomes of items still pending.
      const early = jurisdictionOfBatch(batchId) ? undefined : suppressedOutcomes(env, withPeople(group));
      // Awaited below, unless no item is left pending: its failure is handled there, never left unhandled.
      early?.catch(() => {});
      const pending = await pendingOnly(env, batchId, group);
      if (pending.length === 0) return;
      let outcomes: ItemOutcome[];
      try {
        const stillPending = new Set(pending.flatMap(({ items }) => items.map(({ index }) => index)));
        outcomes = early ? (await early).filter(({ index }) => stillPending.has(index)) : await suppressedOutcomes(env, pending);
      } catch (error) {
        logError("suppression_check_failed", error, { batchId });
        for (const { message } of pending) retryLater(message, config);
        return;
      }
      // Suppressed people are never looked up: their items end failed, unenriched.
      const suppressed = new Set(outcomes.map(({ index }) => index));
      // Messages to retry, with the longest Retry-After (in seconds) of their items.
      const retries = new Map<ItemQueueMessage, number>();
      // What items to retry found meanwhile: the batch keeps it for their end.
      const foundBeforeRetry = new Map<number, Contacts>();
      // Messages with an item to retry for a reason other than our rate governor's hold: that attempt counts.
      const counted = new Set<ItemQueueMessage>();
      const retry = (message: ItemQueueMessage, retryAfterSeconds = 0, held = false) => {
        retries.set(message, Math.max(retries.get(message) ?? 0, retryAfterSeconds));
        if (!held) counted.add(message);
      };
      const providerOutcomes = new Map<string, number>();
      const count = (reports: ProviderReport[]) => {
        for (const { name, outcome } of reports) {
          providerOutcomes.set(`${name}:${outcome}`, (providerOutcomes.get(`${name}:${outcome}`) ?? 0) + 1);
        }
      };
      await Promise.all(
        pending.flatMap(({ message, items }) =>
          items.map(async (item) => {
            if (suppressed.has(item.index)) return;
            const { environment, fields, attemptsBefore = 0 } = message.body;
            // The caches are in KV, a global store: never for a batch kept in a jurisdiction (batch-id.ts).
            const customerId = jurisdictionOfBatch(batchId) ? undefined : message.body.customerId;
            const attempt = attemptsBefore + message.attempts;
            let resolution: Resolution;
            try {
              resolution = await enrich({ environment, customerId, fields, ...item, attempt });
            } catch (error) {
              logError("item_attempt_failed", error, { batchId, index: item.index, attempt });
              if (attempt >= config.itemMaxAttempts)
                outcomes.push({ index: item.index, status: "failed", error: itemErrors.everyAttemptFailed, sources: [] });
              else retry(message);
              return;
            }
            count(resolution.reports);
            if (resolution.kind === "retry") {
              retry(message, resolution.retryAfterSeconds, resolution.held);
              foundBeforeRetry.set(item.index, resolution.found);
            } else outcomes.push({ index: item.index, ...resolution.result });
          }),
        ),
      );
      const providerCounts = Object.fromEntries(providerOutcomes);
      const received = pending.reduce((sum, { items }) => sum + items.length, 0);
      const retried = received - outcomes.length;
      // Each message to retry waits out its delay; its unrecorded items are due when it ends, and the batch
      // is told so, so its re-drive never takes a long wait (a source's Retry-After) for a lost message.
      const recordedIndexes = new Set(outcomes.map(({ index }) => index));
      const delays = new Map<ItemQueueMessage, number>();
      const deferrals: ItemDeferral[] = [];
      const now = Date.now();
      for (const [message, retryAfterSeconds] of retries) {
        // Held only by our governor, a message waits the time it named: no vendor failed, so there is
        // no failure to back off from (the backoff's 30 s base would idle a vendor free again in 1 s).
        const delaySeconds =
          !counted.has(message) && retryAfterSeconds > 0
            ? Math.min(MAX_RETRY_AFTER_SECONDS, retryAfterSeconds)
            : queueRetryDelaySeconds(message.attempts, config, retryAfterSeconds);
        delays.set(message, delaySeconds);
        const dueAt = new Date(now + delaySeconds * 1000).toISOString();
        for (const { index } of message.body.items) {
          if (!recordedIndexes.has(index)) deferrals.push({ index, dueAt, found: foundBeforeRetry.get(index) });
        }
      }
      let recorded: number;
      try {
        ({ recorded } = await batchStub(env, batchId).record(outcomes, deferrals));
      } catch (error) {
        logError("items_record_failed", error, { batchId, items: outcomes.length });
        for (const { message } of pending) retryLater(message, config, retries.get(message));
        return;
      }
      await Promise.all(
        pending.map(async ({ message }) => {
          const delaySeconds = delays.get(message);
          if (delaySeconds === undefined) message.ack();
          // Held back only by our rate governor: sent again without counting the attempt.
          else if (!counted.has(message) && (await resendHeld(env, message, delaySeconds))) message.ack();
          else message.retry({ delaySeconds });
        }),
      );
      if (outcomes.length === 0) log("items_retried", { batchId, items: received, ...providerCounts });
      else log("items_recorded", { batchId, received, recorded, retried, ms: Date.now() - started, ...providerCounts });
    }),
  );
}

/** The messages as pendingOnly answers them, each with the items that carry their person. */
const withPeople = (group: readonly ItemQueueMessage[]): PendingMessage[] =>
  group.map((message) => ({ message, items: message.body.items.filter((item): item is PersonItem => "person" in item) }));

/** Messages whose consumer kept crashing: their items recorded as `failed`, so the batch still completes. */
export async function consumeDeadLetters(messages: readonly ItemQueueMessage[], env: Env): Promise<void> {
  const config = readConfig(env);
  await Promise.all(
    [...groupByBatch(messages)].map(async ([batchId, group]) => {
      const outcomes: ItemOutcome[] = group.flatMap(({ body }) =>
        body.items.map(({ index }) => ({
          index,
          status: "failed" as const,
          error: itemErrors.everyAttemptFailed,
          sources: [],
        })),
      );
      try {
        const { recorded } = await batchStub(env, batchId).record(outcomes);
        for (const message of group) message.ack();
        log("items_dead_lettered", { batchId, items: outcomes.length, recorded });
      } catch (error) {
        logError("dead_letter_record_failed", error, { batchId, items: outcomes.length });
        for (const message of group) retryLater(message, config);
      }
    }),
  );
}
