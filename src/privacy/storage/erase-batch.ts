import { emptyUsage } from "../../account/usage";
import type { Environment } from "../../base/environment";
import { log } from "../../base/log";
import type { BatchParts } from "../../batch/batch-parts";
import { type BatchRow, requireBatchRow } from "../../batch/batch-row";
import { batchHub } from "../../batch/events/webhook-hub-stub";
import { appendOutbox, reportToAccount } from "../../batch/record/outbox";
import { savePurge } from "./cache-purge";
import { cacheKeysToErase } from "./erase-person";
import { deleteItems, zeroed } from "./scrub";

/**
 * Cancel and erase: every item (input, results) goes now, overwritten with zeros
 * first (deleteItems); the batch row stays as a tombstone of id, owner, counts
 * and dates, without the webhook's URL and secret, so nothing is sent
 * afterwards. Pending items are never recorded afterwards (record() refuses).
 * `cacheKeys`, the result-cache keys of the batch's people, are saved for the
 * alarm to delete (cache-purge.ts). The deletion is reported to the account
 * through the outbox. Deleting again changes nothing; answers when it was deleted.
 */
function eraseBatch(storage: DurableObjectStorage, cacheKeys: readonly string[]): string {
  return storage.transactionSync(() => {
    const { deleted_at: deletedAt } = storage.sql
      .exec<{ deleted_at: string | null }>("SELECT deleted_at FROM batch")
      .one();
    if (deletedAt !== null) return deletedAt;
    const now = new Date().toISOString();
    savePurge(storage.sql, cacheKeys);
    deleteItems(storage);
    storage.sql.exec("DELETE FROM endpoint_item_events");
    storage.sql.exec(
      `UPDATE batch SET webhook_url = ${zeroed("webhook_url")}, webhook_secret = ${zeroed("webhook_secret")}`,
    );
    storage.sql.exec("UPDATE batch SET deleted_at = ?, webhook_url = NULL, webhook_secret = NULL", now);
    appendOutbox(storage.sql, now, emptyUsage(), { register: true });
    return now;
  });
}

/**
 * The object's `erase`: erases the batch `row` (eraseBatch; the cached results of its people
 * only the first time), wakes its readers, and tells its account before answering, so the
 * list no longer shows it; if that fails this throws and may be repeated, and the alarm
 * reports it anyway. Answers when it was deleted.
 */
export async function eraseAndReport(parts: BatchParts, row: BatchRow, environment: Environment): Promise<string> {
  const { env, storage, sql } = parts;
  const deletedAt = eraseBatch(storage, row.deleted_at === null ? await cacheKeysToErase(env, sql, row) : []);
  parts.pages.clear();
  parts.events.notify();
  log("batch_deleted", { batchId: requireBatchRow(sql).id, environment });
  await storage.setAlarm(Date.now());
  // The item.completed payloads the customer's endpoints were sent go too; a failure throws, and the
  // delete may be repeated, which asks the hub again.
  await batchHub(env, row).forgetBatch(row.id);
  await reportToAccount(env, sql, requireBatchRow(sql));
  return deletedAt;
}
