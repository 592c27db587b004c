import { emptyUsage, tally } from "../../account/usage";
import type { Config, Prices } from "../../base/config";
import { log } from "../../base/log";
import type { ItemOutcome } from "../../contact-info/batch-contract";
import { type ChargedOutcome, chargeOutcomes, chargeParts } from "../../credits/credits";
import type { LedgerLine } from "../../credits/ledger";
import { noteSizeForScrub } from "../../privacy/storage/high-water";
import { addFinished, type BatchRow, requireBatchRow } from "../batch-row";
import { appendEndpointItemEvents } from "../events/endpoint-item-events";
import type { EventStreams } from "../events/event-streams";
import { appendItemDeliveries } from "../events/item-deliveries";
import { pendingAmong } from "../item-store";
import { fanOutDue, retentionEnd } from "../next-step";
import type { CacheWrites } from "./cache-writes";
import { withEarlierFinds } from "./earlier-finds";
import { appendOutbox } from "./outbox";

// The record path, every end of an item: the consumer's outcomes written to the items still
// pending (docs/storage.md), with the batch counters, the charges and the usage in one
// transaction (recordItems), then cached, notified and reported (recordOutcomes, below).
// Inserts, pages, deferrals and the deadline are in item-store.ts.

/**
 * Outcomes, as one JSON array of rows (outcomeRow), applied by one statement: each
 * finds its item by primary key, and changes it only while it is pending. The
 * unary + keeps the planner off items_by_status, which would walk every pending item.
 * jsonb_each as in INSERT_ITEMS (item-store.ts; here 29% less time).
 */
export const RECORD_ITEMS = `UPDATE items SET status = o.value ->> 1, outcome = o.value ->> 2, emails = o.value ->> 3, phones = o.value ->> 4,
    error_code = o.value ->> 5, error_message = o.value ->> 6, from_cache = o.value ->> 7, sources = o.value ->> 8, finished_at = ?2,
    credits = o.value ->> 9, reason = o.value ->> 10, found_earlier = NULL
  FROM jsonb_each(?1) AS o
  WHERE items.idx = o.value ->> 0 AND +items.status = 'pending'
  RETURNING items.idx`;

/** The followers of the leaders just recorded take their results, found through items_by_leader; not their credits (a duplicate costs 0). */
export const RECORD_FOLLOWERS = `UPDATE items SET status = l.status, outcome = l.outcome, emails = l.emails, phones = l.phones,
    error_code = l.error_code, error_message = l.error_message, from_cache = l.from_cache, sources = l.sources, finished_at = l.finished_at,
    reason = l.reason
  FROM (SELECT value AS idx FROM json_each(?1)) AS recorded JOIN items AS l ON l.idx = recorded.idx
  WHERE items.leader_idx = recorded.idx AND items.status = 'pending'
  RETURNING items.leader_idx AS idx, items.idx AS item`;

const outcomeRow = (outcome: ChargedOutcome) =>
  outcome.status === "completed"
    ? [
        outcome.index,
        "completed",
        outcome.outcome,
        JSON.stringify(outcome.emails),
        JSON.stringify(outcome.phones),
        null,
        null,
        outcome.fromCache ? 1 : 0,
        JSON.stringify(outcome.sources),
        outcome.credits,
        outcome.reason ?? null,
      ]
    : [
        outcome.index,
        "failed",
        null,
        null,
        null,
        outcome.error.code,
        outcome.error.message,
        0,
        JSON.stringify(outcome.sources),
        0,
        null,
      ];

/**
 * Records outcomes on the items still pending and to their followers (items of
 * this batch with the same person), and to the counters, in one transaction.
 * A redelivered message or a repeated call never counts twice; of two outcomes
 * for one item in the same call, the first is recorded. Items are charged
 * (credits/credits.ts) in the same transaction, against the batch's maxCredits, so the
 * cap holds however many records run at once. Answers the items completed and
 * failed, the batch's completedAt when they completed it, the indexes of the
 * outcomes recorded, those of the outcomes whose items were no longer pending
 * (finished before: a redelivery), and the outcomes as recorded (budget_exhausted included).
 */
function recordItems(
  storage: DurableObjectStorage,
  row: BatchRow,
  outcomes: readonly ItemOutcome[],
  prices: Prices,
): {
  completed: number;
  failed: number;
  completedAt: string | null;
  recorded: number[];
  notPending: number[];
  outcomes: ChargedOutcome[];
} {
  const finishedAt = new Date().toISOString();
  const first = new Map<number, ChargedOutcome>();
  let completed = 0;
  let failed = 0;
  let completedAt: string | null = null;
  const usage = emptyUsage();
  // Items changed, per outcome: the item itself, and its followers.
  const changed = new Map<number, number>();
  // Every item these outcomes finished, followers included: item.completed deliveries carry them.
  const finished: number[] = [];
  const notPending: number[] = [];
  storage.transactionSync(() => {
    const firsts = new Map<number, ItemOutcome>();
    for (const outcome of withEarlierFinds(storage.sql, outcomes))
      if (!firsts.has(outcome.index)) firsts.set(outcome.index, outcome);
    const budget = storage.sql
      .exec<{ charged: number; maxCredits: number | null }>(
        "SELECT credits_charged AS charged, max_credits AS maxCredits FROM batch",
      )
      .one();
    const pending = new Set(pendingAmong(storage.sql, [...firsts.keys()]));
    for (const index of firsts.keys()) if (!pending.has(index)) notPending.push(index);
    const charged = chargeOutcomes([...firsts.values()], pending, budget, prices);
    for (const outcome of charged.outcomes) first.set(outcome.index, outcome);
    const count = (rows: Iterable<{ idx: number; item?: number }>) => {
      for (const { idx, item } of rows) {
        changed.set(idx, (changed.get(idx) ?? 0) + 1);
        finished.push(item ?? idx);
      }
    };
    count(
      storage.sql.exec<{ idx: number }>(RECORD_ITEMS, JSON.stringify([...first.values()].map(outcomeRow)), finishedAt),
    );
    // Most batches have no duplicate people: then the followers' statement is not run at all.
    if (
      changed.size > 0 &&
      storage.sql.exec("SELECT 1 FROM items WHERE leader_idx IS NOT NULL LIMIT 1").toArray().length > 0
    ) {
      count(storage.sql.exec<{ idx: number; item: number }>(RECORD_FOLLOWERS, JSON.stringify([...changed.keys()])));
    }
    const ledger: LedgerLine[] = [];
    for (const [index, items] of changed) {
      const outcome = first.get(index)!;
      if (outcome.credits > 0)
        for (const part of chargeParts(outcome, prices))
          ledger.push({ at: finishedAt, kind: "charge", index, ...part });
      if (outcome.status === "completed") completed += items;
      else failed += items;
      tally(usage, outcome, items);
      usage.credits += outcome.credits;
    }
    completedAt = addFinished(storage.sql, row, { completed, failed, credits: charged.credits }, finishedAt);
    appendOutbox(storage.sql, finishedAt, usage, { ledger });
    appendItemDeliveries(storage.sql, row, finished, finishedAt);
    appendEndpointItemEvents(storage.sql, finished, finishedAt);
  });
  return { completed, failed, completedAt, recorded: [...changed.keys()], notPending, outcomes: [...first.values()] };
}

// How soon finished items' usage is reported to the account.
const REPORT_DELAY_MS = 1_000;

/** What the record path works with of the object's parts (batch-parts.ts builds them). */
interface RecordParts {
  storage: DurableObjectStorage;
  sql: SqlStorage;
  cacheWrites: CacheWrites;
  events: EventStreams;
}

/**
 * The record path: records outcomes into the batch whose row (as read just now) is
 * `row`, caches the results it recorded, and arms the alarm to report them; when
 * they complete the batch, finishes it. Every end of an item goes through here.
 */
export async function recordOutcomes(
  { storage, sql, cacheWrites, events }: RecordParts,
  row: BatchRow,
  outcomes: ItemOutcome[],
  config: Config,
): Promise<{ completed: number; failed: number; notPending: number[] }> {
  const counts = recordItems(storage, row, outcomes, config.prices);
  if (counts.completed + counts.failed === 0) return counts;
  events.notify();
  noteSizeForScrub(storage);
  // Started at once, so a delete that comes while it runs has its purge wait for it. The outcomes
  // as recorded: a result held back by the budget is not cached (a resubmit would get it for free).
  const caching = cacheWrites.write(row, counts.outcomes, counts.recorded);
  const completed = counts.completedAt !== null;
  if (completed) await finish(storage, sql, config);
  // Their usage went to the outbox: report it soon, one report for the records of a short while;
  // at once when the batch completed, so the list shows it completed as its status does, or when
  // the fan-out's window has room again, so the queue does not run dry.
  const now = Date.now();
  const reportAt = completed || fanOutDue(requireBatchRow(sql), config) ? now : now + REPORT_DELAY_MS;
  const alarm = await storage.getAlarm();
  if (alarm === null || alarm > reportAt) await storage.setAlarm(reportAt);
  await caching;
  return counts;
}

/** The batch just completed: its alarm now sends the webhook, or waits for retention to end. */
async function finish(storage: DurableObjectStorage, sql: SqlStorage, config: Config): Promise<void> {
  const row = requireBatchRow(sql);
  if (row.completed_at === null) return;
  await storage.setAlarm(row.webhook_state === "pending" ? Date.now() : retentionEnd(row.completed_at, config));
  log("batch_completed", {
    batchId: row.id,
    environment: row.environment,
    completedItems: row.completed_items,
    failedItems: row.failed_items,
    durationMs: Date.parse(row.completed_at) - Date.parse(row.created_at),
  });
}
