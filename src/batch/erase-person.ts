import type { ItemError } from "../contact-info/contact";
import { log } from "../log";
import { storedItemKeys } from "../privacy/person-keys";
import type { BatchRow } from "./batch-row";
import { cacheKeysToErase } from "./cache-purge";
import type { ItemOutcome } from "./contract";
import { eraseItemsInPlace, noteDatabaseSize } from "./scrub";

// Erasure of one person from one batch (POST …/privacy/erasures): the items
// that carry any of the person's identifier keys keep their place, status,
// outcome and credits (the counters do not change), and lose their input and
// results to the erased marker, scrubbed as a deleted batch's items are.

const ERASED: ItemError = { code: "erased", message: "the person was erased at the customer's request before the item was processed" };

export interface PersonEraser {
  storage: DurableObjectStorage;
  row: BatchRow;
  /** Records outcomes through the batch's one path (counters, outbox, completion). */
  settle: (outcomes: ItemOutcome[]) => Promise<unknown>;
  /** Deletes result- and verdict-cache keys, once the cache writes under way have landed. */
  purge: (cacheKeys: string[]) => Promise<void>;
}

/** The items, not yet erased, whose input carries any of `keys` (unhashed identifier keys), and which of them are pending. */
function itemsOfPerson(sql: SqlStorage, keys: readonly string[]): { indexes: number[]; pending: number[] } {
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
 * Erases the person's items: those still pending end `failed` with `erased` (so
 * every item still ends, and no provider is asked for them afterwards); the cache
 * entries of their results and verdicts are deleted first, so a failure leaves
 * the items to a repeated erasure; then their data goes, marked erased at `erasedAt`
 * (the receipt's time). Answers how many items.
 */
export async function erasePersonItems(
  { storage, row, settle, purge }: PersonEraser,
  keys: readonly string[],
  erasedAt: string,
): Promise<number> {
  // A batch not yet wholly in its account's index (from before it, its next alarm far off) indexes itself now.
  if (storage.sql.exec<{ left: number }>("SELECT people_indexed < total_items AS left FROM batch").one().left) {
    await storage.setAlarm(Date.now());
  }
  const { indexes, pending } = itemsOfPerson(storage.sql, keys);
  if (indexes.length === 0) return 0;
  if (pending.length > 0) await settle(pending.map((index) => ({ index, status: "failed", error: ERASED, sources: [] })));
  await purge(await cacheKeysToErase(storage.sql, row, indexes));
  storage.transactionSync(() => eraseItemsInPlace(storage, indexes, erasedAt));
  noteDatabaseSize(storage);
  log("person_erased_from_batch", { batchId: row.id, items: indexes.length, pending: pending.length });
  return indexes.length;
}
