import { emptyUsage, tallyFailed } from "../account/usage";
import type { Config } from "../base/config";
import { logError } from "../base/log";
import type { NewBatch, StagedItems } from "../contact-info/batch-contract";
import { fanOutTarget } from "./alarm-steps";
import type { BatchParts } from "./batch-parts";
import { insertBatchRow } from "./batch-row";
import { appendInvalidItemDeliveries } from "./events/item-deliveries";
import { fanOutNew } from "./fan-out";
import { insertItems } from "./item-store";
import { appendOutbox } from "./record/outbox";
import { migrate } from "./schema";

// When a new batch's alarm fires if the object stopped before taking its first steps itself.
const FIRST_STEPS_FALLBACK_MS = 5_000;

// How long staged chunks wait for their `create` before the alarm deletes them.
export const STAGED_ITEMS_TTL_MS = 10 * 60_000;

/** Stores a staged chunk's items (no batch row: nothing reads them), creating the schema if this is the first write. */
export function storeStagedChunk(storage: DurableObjectStorage, hasSchema: boolean, chunk: StagedItems): void {
  storage.transactionSync(() => {
    if (!hasSchema) migrate(storage);
    insertItems(storage.sql, { ...chunk, sentAtCreation: 0 });
  });
}

/** What storing a new batch counted: its items, those failed (at submission), and when it completed (all failed). */
export interface StoredBatch {
  total: number;
  failed: number;
  completedAt: string | null;
}

/**
 * Writes the batch row, its last (or only) chunk of items and its registration with
 * the account in one transaction, after checking the staged chunks are all there.
 * `sentAtCreation`: how many leading items `create` sends itself.
 */
export function storeNewBatch(
  storage: DurableObjectStorage,
  hasSchema: boolean,
  batch: NewBatch,
  sentAtCreation: number,
): StoredBatch {
  const sql = storage.sql;
  const total = batch.stagedItems + batch.items.length;
  let failed = batch.items.filter((item) => item.error !== null).length;
  let completedAt: string | null = null;
  storage.transactionSync(() => {
    // A new batch gets the latest schema in one script, not by replaying every migration.
    if (!hasSchema) migrate(storage);
    if (batch.stagedItems > 0) failed += stagedFailures(sql, batch.stagedItems);
    completedAt = failed === total ? batch.createdAt : null;
    insertBatchRow(sql, batch, total, failed, completedAt);
    insertItems(sql, { ...batch, firstIndex: batch.stagedItems, sentAtCreation });
    if (failed > 0) appendInvalidItemDeliveries(sql, batch.createdAt);
    // Registers the batch with its account (and counts the items failed at submission): the first step.
    const usage = emptyUsage();
    tallyFailed(usage, failed);
    appendOutbox(sql, batch.createdAt, usage, { register: true });
  });
  return { total, failed, completedAt };
}

/**
 * A new batch's first steps, after `create` answers (the next task), so the caller
 * has its answer as soon as the items are stored: the first window of items is sent
 * from memory, not read back by the alarm, and then the alarm's first steps
 * (registering with the account) are taken too, arming it for the next. The alarm
 * is the fallback: armed with the rows (the output gate holds the answer until both
 * are stored), it takes over if the object stops first, and at once if a step here fails.
 */
export function takeFirstSteps(
  parts: BatchParts,
  batch: NewBatch,
  sentAtCreation: number,
  config: Config,
  advance: () => Promise<void>,
): Promise<void> {
  void parts.storage.setAlarm(Date.now() + FIRST_STEPS_FALLBACK_MS);
  return scheduler
    .wait(0)
    .then(() => fanOutNew(fanOutTarget(parts, config), batch, sentAtCreation))
    .then(advance, (error) => {
      logError("batch_first_send_failed", error, { batchId: batch.id });
      return advance();
    })
    .catch(async (error) => {
      logError("batch_first_steps_failed", error, { batchId: batch.id });
      await parts.storage.setAlarm(Date.now());
    });
}

/** Failed items among those staged, which must all be there: a missing chunk fails the submit rather than make half a batch. */
function stagedFailures(sql: SqlStorage, stagedItems: number): number {
  const { stored, failed } = sql
    .exec<{ stored: number; failed: number }>(
      "SELECT count(*) AS stored, coalesce(sum(status = 'failed'), 0) AS failed FROM items WHERE idx < ?",
      stagedItems,
    )
    .one();
  if (stored !== stagedItems) throw new Error(`${stagedItems - stored} staged item(s) missing`);
  return failed;
}
