import type { Learned } from "../account/learned";
import { jurisdictionOfBatch } from "../base/batch-id";
import { readConfig } from "../base/config";
import { log, logError } from "../base/log";
import { batchStub } from "../batch/stub";
import type { ItemOutcome, RecordAnswer } from "../contact-info/batch-contract";
import { itemErrors } from "../contact-info/item-errors";
import { enricher } from "../enrichment/enricher";
import { undeliverableScreen } from "../privacy/do-not-deliver";
import { suppressedOutcomes } from "../privacy/suppression-check";
import type { ItemMessage, PersonItem } from "../queue-messages/item-message";
import { type ItemAttempt, planGroup, resolutionsOf, screenResolutions, type TriedMessage } from "./group-plan";
import { resendHeld } from "./held-resend";
import { type PendingMessage, pendingCheckNeeded, pendingOnly } from "./pending-only";
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
 * Enriches every item of every message, then records a whole batch-group with one
 * Durable Object call. What becomes of each item and message is planned by
 * `planGroup` (group-plan.ts): a message is acked once all its items are recorded,
 * retried (its recorded items skipped then, see pendingOnly) or, held back only by
 * our rate governor, sent again. This is the I/O around that plan.
 */
export async function consumeItems(messages: readonly ItemQueueMessage[], env: Env): Promise<void> {
  const config = readConfig(env);
  const enrich = enricher(env, config);

  await Promise.all(
    [...groupByBatch(messages)].map(async ([batchId, group]) => {
      const started = Date.now();
      const checked = pendingCheckNeeded(batchId, group);
      // Outside a jurisdiction the messages carry their people: the do-not-enrich check runs beside
      // the pending check, one round trip instead of two, and keeps the outcomes of items still pending.
      const early = jurisdictionOfBatch(batchId) ? undefined : suppressedOutcomes(env, withPeople(group));
      // Awaited below, unless no item is left pending: its failure is handled there, never left unhandled.
      early?.catch(() => {});
      // Without the check (a first delivery in `test`), record() tells which items were no longer pending.
      const pending = checked ? await pendingOnly(env, batchId, group) : withPeople(group);
      if (pending.length === 0) return;
      let outcomes: ItemOutcome[];
      let withholds: boolean;
      let learned: Learned | undefined;
      try {
        const stillPending = new Set(pending.flatMap(({ items }) => items.map(({ index }) => index)));
        ({ outcomes, withholds, learned } = await (early ?? suppressedOutcomes(env, pending)));
        outcomes = outcomes.filter(({ index }) => stillPending.has(index));
      } catch (error) {
        logError("suppression_check_failed", error, { batchId });
        for (const { message } of pending) retryLater(message, config);
        return;
      }
      // Suppressed people are never looked up: their items end failed, unenriched.
      const suppressed = new Set(outcomes.map(({ index }) => index));
      const enriched = await Promise.all(
        pending.map(async ({ message, items }): Promise<TriedMessage<ItemQueueMessage>> => {
          const { environment, fields, maxAgeDays, attemptsBefore = 0 } = message.body;
          // The caches are in KV, a global store: never for a batch kept in a jurisdiction (batch-id.ts).
          const customerId = jurisdictionOfBatch(batchId) ? undefined : message.body.customerId;
          const attempt = attemptsBefore + message.attempts;
          const attempts = await Promise.all(
            items
              .filter((item) => !suppressed.has(item.index))
              .map(async (item): Promise<ItemAttempt> => {
                try {
                  const resolution = await enrich({
                    environment,
                    customerId,
                    fields,
                    maxAgeDays,
                    learned,
                    ...item,
                    attempt,
                  });
                  return { index: item.index, attempt, kind: "resolved", resolution };
                } catch (error) {
                  logError("item_attempt_failed", error, { batchId, index: item.index, attempt });
                  return { index: item.index, attempt, kind: "crashed" };
                }
              }),
          );
          return {
            message,
            deliveries: message.attempts,
            indexes: message.body.items.map(({ index }) => index),
            attempts,
          };
        }),
      );
      let tried = enriched;
      try {
        if (withholds) {
          const screen = await undeliverableScreen(env, pending[0]?.message.body, resolutionsOf(enriched));
          if (screen) tried = screenResolutions(enriched, screen);
        }
      } catch (error) {
        logError("do_not_deliver_check_failed", error, { batchId });
        for (const { message } of pending) retryLater(message, config);
        return;
      }
      const plan = planGroup(tried, outcomes, config, Date.now());
      const received = pending.reduce((sum, { items }) => sum + items.length, 0);
      const retried = received - plan.outcomes.length;
      let answer: RecordAnswer;
      try {
        answer = await batchStub(env, batchId).record(plan.outcomes, plan.deferrals);
      } catch (error) {
        logError("items_record_failed", error, { batchId, items: plan.outcomes.length });
        for (const { message } of pending) {
          const action = plan.actions.get(message);
          retryLater(message, config, action?.kind === "retry" ? action.retryAfterSeconds : undefined);
        }
        return;
      }
      // Items no longer pending (finished by another delivery, or the batch deleted): their messages are done.
      const dropped = new Set(answer.notPending);
      await Promise.all(
        pending.map(async ({ message }) => {
          const done = message.body.items.every(({ index }) => dropped.has(index));
          const action = done ? { kind: "ack" as const } : (plan.actions.get(message) ?? { kind: "ack" as const });
          if (action.kind === "ack") message.ack();
          // Held back only by our rate governor: sent again without counting the attempt.
          else if (action.held && (await resendHeld(env, message, action.delaySeconds))) message.ack();
          else message.retry({ delaySeconds: action.delaySeconds });
        }),
      );
      const { providerCounts } = plan;
      const { recorded } = answer;
      if (dropped.size > 0) log("items_dropped", { batchId, items: dropped.size });
      if (plan.outcomes.length === 0) log("items_retried", { batchId, items: received, ...providerCounts });
      else if (dropped.size < received)
        log("items_recorded", { batchId, received, recorded, retried, ms: Date.now() - started, ...providerCounts });
    }),
  );
}

/** The messages as pendingOnly answers them, each with the items that carry their person. */
const withPeople = (group: readonly ItemQueueMessage[]): PendingMessage[] =>
  group.map((message) => ({
    message,
    items: message.body.items.filter((item): item is PersonItem => "person" in item),
  }));

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
