import type { ErasureReceipt, SuppressionList } from "../contact-info/privacy-views";
import { type SuppressionPage, suppressionPaging } from "./suppression-query";

// The account's privacy tables (docs/storage.md): the person index, the
// suppression list and erasure receipts. Every key here is a keyed hash of an
// identifier key (contact-info/person-keys.ts); nothing here names a person.

// Keys bound as one JSON array to one parameter (workerd allows 100 bound parameters).
const KEYS = "SELECT value FROM json_each(?)";

/** Index entries of a batch's items: [hashed identifier key, hash of the item's person key]. */
export type PersonIndexEntry = [key: string, personHash: string];

/** Adds a batch's entries; an entry sent again (a repeated report) is kept once. */
export function indexPeople(sql: SqlStorage, batchId: string, entries: readonly PersonIndexEntry[]): void {
  if (entries.length === 0) return;
  sql.exec(
    `INSERT INTO person_index (key, batch_id, person_hash) SELECT value ->> 0, ?, value ->> 1 FROM json_each(?) WHERE true
     ON CONFLICT DO NOTHING`,
    batchId,
    JSON.stringify(entries),
  );
}

/** Forgets a batch: deleted, or emptied by retention. */
export const unindexBatch = (sql: SqlStorage, batchId: string): void =>
  void sql.exec("DELETE FROM person_index WHERE batch_id = ?", batchId);

/**
 * The batches that hold any of `keys` (one search of the primary key per key), and the hashes their
 * items' results may be cached under; and the batches not yet wholly indexed, which may hold them too.
 */
export function holders(sql: SqlStorage, keys: readonly string[]): { batchIds: string[]; personHashes: string[] } {
  const rows = sql
    .exec<{ batch_id: string; person_hash: string }>(
      `SELECT batch_id, person_hash FROM person_index WHERE key IN (${KEYS})`,
      JSON.stringify(keys),
    )
    .toArray();
  const unindexed = sql
    .exec<{ id: string }>(
      "SELECT id FROM batches INDEXED BY batches_unindexed WHERE people_complete = 0 AND deleted_at IS NULL",
    )
    .toArray();
  return {
    batchIds: [...new Set([...rows.map((row) => row.batch_id), ...unindexed.map((row) => row.id)])],
    personHashes: [...new Set(rows.map((row) => row.person_hash))],
  };
}

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
  sql.exec(`DELETE FROM person_index WHERE key IN (${KEYS})`, JSON.stringify(keys));
  if (suppress) addSuppressions(sql, keys, receipt.erasedAt);
}

export function readErasure(sql: SqlStorage, id: string): ErasureReceipt | null {
  const row = sql
    .exec<{ id: string; erased_at: string; items: number; batches: number }>("SELECT * FROM erasures WHERE id = ?", id)
    .toArray()[0];
  return row ? { id: row.id, erasedAt: row.erased_at, items: row.items, batches: row.batches } : null;
}

/** Adds keys not yet listed (a listed key keeps its date); answers how many were new. */
export function addSuppressions(sql: SqlStorage, keys: readonly string[], createdAt: string): number {
  return sql
    .exec(
      `INSERT INTO suppressions (key, created_at) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT DO NOTHING RETURNING key`,
      createdAt,
      JSON.stringify(keys),
    )
    .toArray().length;
}

/** Whether the key was listed (and is no more). */
export const removeSuppression = (sql: SqlStorage, key: string): boolean =>
  sql.exec("DELETE FROM suppressions WHERE key = ? RETURNING key", key).toArray().length > 0;

/** Of `keys`, those listed. */
export function suppressedAmong(sql: SqlStorage, keys: readonly string[]): string[] {
  if (keys.length === 0) return [];
  return sql
    .exec<{ key: string }>(`SELECT key FROM suppressions WHERE key IN (${KEYS})`, JSON.stringify(keys))
    .toArray()
    .map(({ key }) => key);
}

/** One page of the list, newest first. */
export function listSuppressions(sql: SqlStorage, { limit, after }: SuppressionPage): SuppressionList {
  const rows = sql
    .exec<{ key: string; created_at: string }>(
      `SELECT key, created_at FROM suppressions
       WHERE (? IS NULL OR created_at < ? OR (created_at = ? AND key < ?))
       ORDER BY created_at DESC, key DESC LIMIT ?`,
      after?.createdAt ?? null,
      after?.createdAt ?? null,
      after?.createdAt ?? null,
      after?.id ?? null,
      limit + 1,
    )
    .toArray();
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    suppressions: shown.map((row) => ({ key: row.key, createdAt: row.created_at })),
    nextCursor: rows.length > limit && last ? suppressionPaging.encode(last.created_at, last.key) : null,
  };
}
