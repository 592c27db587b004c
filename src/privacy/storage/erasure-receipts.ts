import type { ErasureReceipt } from "../views";
import { unindexPerson } from "./person-index";
import { addSuppressions } from "./suppression-list";

// The account's erasure receipts (docs/storage.md, erasures): what an erasure of a person
// (privacy/erasure.ts) did, read again by its id; nothing in a receipt names the person.

/** Stores the receipt and forgets where the person was; suppresses them unless told not to. */
export function saveErasure(
  sql: SqlStorage,
  receipt: ErasureReceipt,
  keys: readonly string[],
  suppress: boolean,
): void {
  sql.exec(
    "INSERT INTO erasures (id, erased_at, items, batches) VALUES (?, ?, ?, ?)",
    receipt.id,
    receipt.erasedAt,
    receipt.items,
    receipt.batches,
  );
  unindexPerson(sql, keys);
  if (suppress) addSuppressions(sql, keys, receipt.erasedAt);
}

export function readErasure(sql: SqlStorage, id: string): ErasureReceipt | null {
  const row = sql
    .exec<{ id: string; erased_at: string; items: number; batches: number }>("SELECT * FROM erasures WHERE id = ?", id)
    .toArray()[0];
  return row ? { id: row.id, erasedAt: row.erased_at, items: row.items, batches: row.batches } : null;
}
