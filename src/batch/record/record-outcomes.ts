import type { Config } from "../../base/config";
import { log } from "../../base/log";
import type { ItemOutcome } from "../../contact-info/batch-contract";
import { noteSizeForScrub } from "../../privacy/storage/high-water";
import { type BatchRow, requireBatchRow } from "../batch-row";
import type { EventStreams } from "../events/event-streams";
import { fanOutDue, retentionEnd } from "../next-step";
import type { CacheWrites } from "./cache-writes";
import { recordItems } from "./item-records";

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
