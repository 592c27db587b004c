import type { PersonIndexEntry } from "../account/privacy-store";
import { hashKeys, storedItemKeys } from "../contact-info/person-keys";
import { sha256Hex } from "../sha256";
import type { BatchRow } from "./batch-row";

// The batch's part of its account's person index (account/privacy-store.ts): its
// items' hashed identifier keys, sent with its reports a chunk at a time, from
// batch.people_indexed on, so an erasure asks only the batches holding a person.

// Items one report carries at most (about 4 hashes each: some 300 kB).
const ITEMS_PER_REPORT = 1_000;

/** The next chunk of index entries and the index the next chunk starts from, or null when every item was sent. */
export async function peopleToIndex(sql: SqlStorage, row: BatchRow): Promise<{ entries: PersonIndexEntry[]; through: number } | null> {
  if (row.deleted_at !== null || row.expired_at !== null) return null;
  const { from } = sql.exec<{ from: number }>('SELECT people_indexed AS "from" FROM batch').one();
  if (from >= row.total_items) return null;
  const items = sql
    .exec<{ idx: number; input: string }>(
      "SELECT idx, input FROM items WHERE idx >= ? AND erased_at IS NULL ORDER BY idx LIMIT ?",
      from,
      ITEMS_PER_REPORT,
    )
    .toArray();
  const entries = new Map<string, PersonIndexEntry>();
  for (const { input } of items) {
    const item = storedItemKeys(input);
    if (!item) continue;
    const keys = await hashKeys(item.keys);
    // The hash the item's results are cached under (result-cache.ts), so an erasure reaches them after retention too.
    const personHash = await sha256Hex(item.personKey);
    for (const key of keys) entries.set(`${key}:${personHash}`, [key, personHash]);
  }
  const last = items[items.length - 1];
  return { entries: [...entries.values()], through: items.length < ITEMS_PER_REPORT || !last ? row.total_items : last.idx + 1 };
}

/** The account stored the chunk: the next report sends the one after. */
export const noteIndexed = (sql: SqlStorage, through: number): void =>
  void sql.exec("UPDATE batch SET people_indexed = max(people_indexed, ?)", through);
