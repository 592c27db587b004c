import type { Config } from "../../base/config";
import { log } from "../../base/log";
import type { BatchParts } from "../../batch/batch-parts";
import { type BatchRow, requireBatchRow } from "../../batch/batch-row";
import { batchHub } from "../../batch/events/webhook-hub-stub";
import { reportStep } from "../../batch/record/outbox";
import { recordOutcomes } from "../../batch/record/record-outcomes";
import { itemErrors } from "../../contact-info/item-errors";
import { storedItemKeys } from "../../contact-info/person-keys";
import { cacheKeysToErase } from "./cache-purge";
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
