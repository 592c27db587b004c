import type { Config } from "../../base/config";
import { log } from "../../base/log";
import type { BatchParts } from "../../batch/batch-parts";
import { type BatchRow, requireBatchRow } from "../../batch/batch-row";
import { batchHub } from "../../batch/events/webhook-hub-stub";
import { reportStep } from "../../batch/record/outbox";
import { recordOutcomes } from "../../batch/record/record-outcomes";
import { itemErrors } from "../../contact-info/item-errors";
import { personHasher, storedItemKeys } from "../../contact-info/person-keys";
import { batchCacheScope, erasableCacheKeys, verdictCacheKey } from "../../enrichment/result-cache";
import { noteSizeForScrub } from "./high-water";
import { eraseItemsInPlace } from "./scrub";

// Erasure of one person from one batch (POST …/privacy/erasures): the items
// that carry any of the person's identifier keys keep their place, status,
// outcome and credits (the counters do not change), and lose their input and
// results to the erased marker, scrubbed as a deleted batch's items are.

/** The items, not yet erased, whose input carries any of `keys` (unhashed identifier keys), and which of them are pending. */
export function itemsOfPerson(sql: SqlStorage, keys: readonly string[]): { indexes: number[]; pending: number[] } {
  const wanted = new Set(keys);
  const indexes: number[] = [];
  const pending: number[] = [];
  for (const { idx, input, status } of sql.exec<{ idx: number; input: string; status: string }>(
    "SELECT idx, input, status FROM items WHERE erased_at IS NULL AND idx >= 0",
  )) {
    if (!storedItemKeys(input)?.keys.some((key) => wanted.has(key))) continue;
    indexes.push(idx);
    if (status === "pending") pending.push(idx);
  }
  return { indexes, pending };
}

/**
 * Erases the person's items from the batch whose row is `row`: those still
 * pending end `failed` with `erased` (so every item still ends, and no provider
 * is asked for them afterwards); the cache entries of their results and verdicts
 * are deleted first, once the cache writes under way have landed, so a failure
 * leaves the items to a repeated erasure; then their data goes, marked erased at
 * `erasedAt` (the receipt's time). Answers how many items. A batch its items are
 * gone from answers 0, and tells its account now (that report may still wait on the
 * alarm), so no erasure asks it again.
 */
export async function erasePersonItems(
  parts: BatchParts,
  row: BatchRow,
  keys: readonly string[],
  erasedAt: string,
  config: Config,
): Promise<number> {
  const { storage, sql, cache, cacheWrites } = parts;
  if (row.deleted_at !== null || row.expired_at !== null) {
    await reportStep(parts.env, storage, row);
    return 0;
  }
  const { indexes, pending } = itemsOfPerson(sql, keys);
  if (indexes.length === 0) {
    await eraseFromHub(parts.env, sql, row);
    return 0;
  }
  if (pending.length > 0) {
    await recordOutcomes(
      parts,
      requireBatchRow(sql),
      pending.map((index) => ({ index, status: "failed", error: itemErrors.erased, sources: [] })),
      config,
    );
  }
  const cacheKeys = await cacheKeysToErase(parts.env, sql, row, indexes);
  await cacheWrites.settled();
  await Promise.all(cacheKeys.map((key) => cache.delete(key)));
  storage.transactionSync(() => eraseItemsInPlace(storage, indexes, erasedAt));
  noteSizeForScrub(storage);
  parts.pages.clear();
  await eraseFromHub(parts.env, sql, row);
  log("person_erased_from_batch", { batchId: row.id, items: indexes.length, pending: pending.length });
  return indexes.length;
}

/**
 * The item.completed payloads the customer's WebhookHub stored for the batch's endpoints: every item the
 * batch erased (this time, or before, when the hub could not be reached: the erasure failed and is
 * repeated) leaves them. After the items were erased here, so no event rendered afterwards holds them.
 */
async function eraseFromHub(env: Env, sql: SqlStorage, row: BatchRow): Promise<void> {
  const erased = sql
    .exec<{ idx: number; erased_at: string }>("SELECT idx, erased_at FROM items WHERE erased_at IS NOT NULL")
    .toArray()
    .map(({ idx, erased_at }): [number, string] => [idx, erased_at]);
  if (erased.length > 0) await batchHub(env, row).eraseItems(row.id, erased);
}

/**
 * The result-cache keys the batch's people may be cached under, and those of
 * the verdicts on the addresses its items returned or kept for their end (the
 * only verdicts cached, enrichment/verdict-cache.ts): none for a test batch (never cached).
 * Read before the erase's transaction; person keys never change after creation.
 */
export async function cacheKeysToErase(
  env: Env,
  sql: SqlStorage,
  row: BatchRow,
  among: readonly number[] | null = null,
): Promise<string[]> {
  if (row.environment !== "live") return [];
  // All items, or those of `among` (an erasure of one person).
  const items = `(SELECT * FROM items WHERE ?1 IS NULL OR idx IN (SELECT value FROM json_each(?1))) AS items`;
  const amongJson = among === null ? null : JSON.stringify(among);
  const personKeys = sql
    .exec<{ person_key: string }>(`SELECT DISTINCT person_key FROM ${items} WHERE person_key IS NOT NULL`, amongJson)
    .toArray()
    .map(({ person_key }) => person_key);
  const addresses = sql
    .exec<{ address: string }>(
      `SELECT DISTINCT lower(e.value ->> 'address') AS address FROM ${items}, json_each(items.emails) AS e WHERE items.emails IS NOT NULL
       UNION SELECT lower(e.value ->> 'address') FROM ${items}, json_each(items.found_earlier, '$.emails') AS e WHERE items.found_earlier IS NOT NULL`,
      amongJson,
    )
    .toArray()
    .flatMap(({ address }) => (typeof address === "string" ? [address] : []));
  const { owner, fields } = batchCacheScope(row);
  const verdictKeys = await Promise.all(addresses.map((address) => verdictCacheKey(owner, address)));
  return [...(await erasableCacheKeys(owner, fields, personKeys, personHasher(env, owner))), ...verdictKeys];
}
