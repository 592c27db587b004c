import { KEYS } from "./bound-keys";

// The account's person index (docs/storage.md, person_index): which of the customer's batches hold
// a person, by keyed hashes of their identifier keys (contact-info/person-keys.ts); each batch sends
// its entries a chunk at a time (person-index-chunks.ts), so an erasure asks only the batches named.

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

/** Forgets where the person whose keys these are was (their erasure). */
export const unindexPerson = (sql: SqlStorage, keys: readonly string[]): void =>
  void sql.exec(`DELETE FROM person_index WHERE key IN (${KEYS})`, JSON.stringify(keys));

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
