import { emptyUsage } from "../account/usage";
import { savePurge } from "./cache-purge";
import { appendOutbox } from "./outbox";
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
export function eraseBatch(storage: DurableObjectStorage, cacheKeys: readonly string[]): string {
  return storage.transactionSync(() => {
    const { deleted_at: deletedAt } = storage.sql.exec<{ deleted_at: string | null }>("SELECT deleted_at FROM batch").one();
    if (deletedAt !== null) return deletedAt;
    const now = new Date().toISOString();
    savePurge(storage.sql, cacheKeys);
    deleteItems(storage);
    storage.sql.exec(`UPDATE batch SET webhook_url = ${zeroed("webhook_url")}, webhook_secret = ${zeroed("webhook_secret")}`);
    storage.sql.exec("UPDATE batch SET deleted_at = ?, webhook_url = NULL, webhook_secret = NULL", now);
    appendOutbox(storage.sql, now, emptyUsage(), { register: true });
    return now;
  });
}

export const PENDING_AMONG = "SELECT idx FROM items WHERE idx IN (SELECT value FROM json_each(?)) AND status = 'pending'";

/** Of `indexes`, the items still pending: one search of items_by_status each. */
export function pendingAmong(sql: SqlStorage, indexes: readonly number[]): number[] {
  return sql
    .exec<{ idx: number }>(PENDING_AMONG, JSON.stringify(indexes))
    .toArray()
    .map(({ idx }) => idx);
}
