import { jurisdictionOfBatch } from "../base/batch-id";
import { type Config, readConfig } from "../base/config";
import { log, logError } from "../base/log";
import { batchStub } from "../batch/stub";
import type { ItemOutcome, RecordAnswer } from "../contact-info/batch-contract";
import { itemErrors } from "../contact-info/item-errors";
import { enricher } from "../enrichment/enricher";
import { undeliverableScreen } from "../privacy/do-not-deliver";
import { type Screening, suppressedOutcomes } from "../privacy/suppression-check";
import {
  type GroupPlan,
  type ItemAttempt,
  planGroup,
  resolutionsOf,
  screenResolutions,
  type TriedMessage,
} from "./group-plan";
import { groupByBatch, type ItemQueueMessage, retryEvery, settleMessages, withPeople } from "./group-plumbing";
import { type PendingMessage, pendingCheckNeeded, pendingOnly } from "./pending-only";
import { retryLater } from "./retry";

/** What every stage of one batch's group reads. */
interface Group {
  env: Env;
  config: Config;
  enrich: ReturnType<typeof enricher>;
  batchId: string;
}

/** The group's messages with their items still pending, and what the do-not-enrich screen found. */
type Screened = { pending: PendingMessage[] } & Screening;

/**
 * Consumes the item queue, one batch's group of messages at a time, in five stages: screen (items still
 * pending, people not on the do-not-enrich list), enrich (the rest, their results screened by the
 * do-not-deliver list), plan (`planGroup`, pure: what each item and message comes to), record (one
 * Durable Object call for the group) and settle (ack, retry or resend each message). A stage that fails
 * hands every message back to the queue; recording is idempotent, so nothing is lost or paid twice.
 */
export async function consumeItems(messages: readonly ItemQueueMessage[], env: Env): Promise<void> {
  const config = readConfig(env);
  const enrich = enricher(env, config);
  await Promise.all(
    [...groupByBatch(messages)].map(([batchId, group]) => consumeGroup({ env, config, enrich, batchId }, group)),
  );
}

async function consumeGroup(group: Group, messages: readonly ItemQueueMessage[]): Promise<void> {
  const started = Date.now();
  const screened = await screen(group, messages);
  if (screened === undefined) return;
  const tried = await enrich(group, screened);
  if (tried === undefined) return;
  const plan = planGroup(tried, screened.outcomes, group.config, Date.now());
  const answer = await record(group, screened.pending, plan);
  if (answer === undefined) return;
  await settle(group, screened.pending, plan, answer, started);
}

/**
 * The group's items still pending, with those whose person is on the do-not-enrich list as failed
 * outcomes (never looked up). Undefined when none is pending, or when the check failed (retried).
 */
async function screen({ env, config, batchId }: Group, messages: readonly ItemQueueMessage[]) {
  const checked = pendingCheckNeeded(batchId, messages);
  // Outside a jurisdiction the messages carry their people: the do-not-enrich check runs beside
  // the pending check, one round trip instead of two, and keeps the outcomes of items still pending.
  const early = jurisdictionOfBatch(batchId) ? undefined : suppressedOutcomes(env, withPeople(messages));
  // Awaited below, unless no item is left pending: its failure is handled there, never left unhandled.
  early?.catch(() => {});
  // Without the check (a first delivery in `test`), record() tells which items were no longer pending.
  const pending = checked ? await pendingOnly(env, batchId, messages) : withPeople(messages);
  if (pending.length === 0) return undefined;
  try {
    const stillPending = new Set(pending.flatMap(({ items }) => items.map(({ index }) => index)));
    const screening = await (early ?? suppressedOutcomes(env, pending));
    const outcomes = screening.outcomes.filter(({ index }) => stillPending.has(index));
    return { ...screening, outcomes, pending } satisfies Screened;
  } catch (error) {
    logError("suppression_check_failed", error, { batchId });
    retryEvery(pending, config);
    return undefined;
  }
}

/**
 * Each unsuppressed item looked up, an error of ours kept as `crashed` (planGroup retries it), then the
 * results screened by the do-not-deliver list when the customer's holds anything. Undefined when that
 * screen failed (retried).
 */
async function enrich(group: Group, { pending, outcomes, withholds, learned }: Screened) {
  const { env, config, batchId } = group;
  const suppressed = new Set(outcomes.map(({ index }) => index));
  const enriched = await Promise.all(
    pending.map(({ message, items }) => enrichMessage(group, message, items, suppressed, learned)),
  );
  if (!withholds) return enriched;
  try {
    const screen = await undeliverableScreen(env, pending[0]?.message.body, resolutionsOf(enriched));
    return screen ? screenResolutions(enriched, screen) : enriched;
  } catch (error) {
    logError("do_not_deliver_check_failed", error, { batchId });
    retryEvery(pending, config);
    return undefined;
  }
}

async function enrichMessage(
  { enrich, batchId }: Group,
  message: ItemQueueMessage,
  items: PendingMessage["items"],
  suppressed: ReadonlySet<number>,
  learned: Screening["learned"],
): Promise<TriedMessage<ItemQueueMessage>> {
  const { environment, fields, maxAgeDays, attemptsBefore = 0 } = message.body;
  // The caches are in KV, a global store: never for a batch kept in a jurisdiction (batch-id.ts).
  const customerId = jurisdictionOfBatch(batchId) ? undefined : message.body.customerId;
  const attempt = attemptsBefore + message.attempts;
  const attempts = await Promise.all(
    items
      .filter((item) => !suppressed.has(item.index))
      .map(async (item): Promise<ItemAttempt> => {
        try {
          const resolution = await enrich({ environment, customerId, fields, maxAgeDays, learned, ...item, attempt });
          return { index: item.index, attempt, kind: "resolved", resolution };
        } catch (error) {
          logError("item_attempt_failed", error, { batchId, index: item.index, attempt });
          return { index: item.index, attempt, kind: "crashed" };
        }
      }),
  );
  return { message, deliveries: message.attempts, indexes: message.body.items.map(({ index }) => index), attempts };
}

/** The plan's outcomes and deferrals, in one call to the batch. Undefined when it failed (retried). */
async function record(
  { env, config, batchId }: Group,
  pending: readonly PendingMessage[],
  plan: GroupPlan<ItemQueueMessage>,
): Promise<RecordAnswer | undefined> {
  try {
    return await batchStub(env, batchId).record(plan.outcomes, plan.deferrals);
  } catch (error) {
    logError("items_record_failed", error, { batchId, items: plan.outcomes.length });
    retryEvery(pending, config, (message) => {
      const action = plan.actions.get(message);
      return action?.kind === "retry" ? action.retryAfterSeconds : undefined;
    });
    return undefined;
  }
}

/** Each message acked, retried or resent as planned, then the group's line in the log. */
async function settle(
  { env, batchId }: Group,
  pending: readonly PendingMessage[],
  plan: GroupPlan<ItemQueueMessage>,
  answer: RecordAnswer,
  started: number,
): Promise<void> {
  // Items no longer pending (finished by another delivery, or the batch deleted): their messages are done.
  const dropped = new Set(answer.notPending);
  await settleMessages(env, pending, plan.actions, dropped);
  const { providerCounts } = plan;
  const received = pending.reduce((sum, { items }) => sum + items.length, 0);
  const retried = received - plan.outcomes.length;
  if (dropped.size > 0) log("items_dropped", { batchId, items: dropped.size });
  if (plan.outcomes.length === 0) log("items_retried", { batchId, items: received, ...providerCounts });
  else if (dropped.size < received)
    log("items_recorded", {
      batchId,
      received,
      recorded: answer.recorded,
      retried,
      ms: Date.now() - started,
      ...providerCounts,
    });
}

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
