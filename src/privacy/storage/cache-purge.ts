import { logError } from "../../base/log";
import type { CacheWrites } from "../../batch/record/cache-writes";
import { retryStepLater, stepSucceeded } from "../../batch/step-retry";
import type { ResultCache } from "../../enrichment/result-cache";
import { zeroed } from "./scrub";

// Erasure reaches the result cache: the deleted batch's people's keys are saved
// (cache_purge) in the transaction that deletes its items, and its alarm deletes
// them from KV, a bounded chunk per run (step `purge_cache` of nextStep).

// KV deletes per alarm run: an invocation may make 1,000 KV operations (Workers KV
// limits), and a run makes few other calls; the alarm re-arms to go on.
const PURGE_KEYS_PER_RUN = 500;
// Deletes in flight at once; each chunk's rows go once its deletes succeeded.
const PURGE_CHUNK = 50;
// Keys per INSERT (one JSON array bound to one parameter, well under 2 MB).
const KEYS_PER_INSERT = 1_000;

/** Saves the keys to purge; within the erase's transaction. */
export function savePurge(sql: SqlStorage, keys: readonly string[]): void {
  for (let start = 0; start < keys.length; start += KEYS_PER_INSERT) {
    sql.exec(
      "INSERT INTO cache_purge (key) SELECT value FROM json_each(?)",
      JSON.stringify(keys.slice(start, start + KEYS_PER_INSERT)),
    );
  }
}

/**
 * The alarm's step: once the cache writes under way have landed, deletes up to
 * PURGE_KEYS_PER_RUN keys from the cache, and their rows (zeroed first: the
 * keys hash the people). True when none is left; false when it armed the alarm
 * to go on in a new run (or, after a failure, later).
 */
export async function purgeStep(
  storage: DurableObjectStorage,
  cache: ResultCache,
  writes: CacheWrites,
  batchId: string,
): Promise<boolean> {
  await writes.settled();
  const rows = storage.sql
    .exec<{ id: number; key: string }>("SELECT rowid AS id, key FROM cache_purge LIMIT ?", PURGE_KEYS_PER_RUN)
    .toArray();
  try {
    for (let start = 0; start < rows.length; start += PURGE_CHUNK) {
      const chunk = rows.slice(start, start + PURGE_CHUNK);
      await Promise.all(chunk.map(({ key }) => cache.delete(key)));
      const ids = JSON.stringify(chunk.map(({ id }) => id));
      storage.transactionSync(() => {
        storage.sql.exec(
          `UPDATE cache_purge SET key = ${zeroed("key")} WHERE rowid IN (SELECT value FROM json_each(?))`,
          ids,
        );
        storage.sql.exec("DELETE FROM cache_purge WHERE rowid IN (SELECT value FROM json_each(?))", ids);
      });
    }
  } catch (error) {
    logError("cache_purge_failed", error, { batchId });
    await retryStepLater(storage, "purge_cache");
    return false;
  }
  stepSucceeded(storage, "purge_cache");
  if (rows.length < PURGE_KEYS_PER_RUN) return true;
  await storage.setAlarm(Date.now());
  return false;
}
