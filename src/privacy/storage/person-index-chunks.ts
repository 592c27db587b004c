import type { Environment } from "../../base/environment";
import { personHasher, storedItemKeys } from "../../contact-info/person-keys";
import type { PersonIndexEntry } from "./account-privacy";

// The batch's part of its account's person index (account-privacy.ts): its
// items' hashed identifier keys, sent with its reports a chunk at a time, from
// batch.people_indexed on, so an erasure asks only the batches holding a person.
// Sent once the batch completes: until its last chunk is in, every erasure asks the
// batch anyway, and indexing while the items are processed delayed them (a 10,000-item
// batch's first results waited for 10 reports: bench/NOTES.md).

/** What the chunks read of the batch row (batch/batch-row.ts). */
interface IndexedBatch {
  customer_id: string;
  environment: Environment;
  total_items: number;
  completed_at: string | null;
  deleted_at: string | null;
  expired_at: string | null;
}

// Items one report carries at most (about 4 hashes each: some 300 kB).
const ITEMS_PER_REPORT = 1_000;

/**
 * The next chunk of index entries and the index the next chunk starts from (none yet, while the
 * batch is processed), or null when there is nothing left to send: every item was, or the batch is gone.
 */
export async function peopleToIndex(
  env: Env,
  sql: SqlStorage,
  row: IndexedBatch,
): Promise<{ entries: PersonIndexEntry[]; through: number } | null> {
  if (row.deleted_at !== null || row.expired_at !== null) return null;
  const { from } = sql.exec<{ from: number }>('SELECT people_indexed AS "from" FROM batch').one();
  if (from >= row.total_items) return null;
  if (row.completed_at === null) return { entries: [], through: from };
  // Items are numbered 0 to total_items - 1, and only retention or a deletion (null above) removes them.
  const through = Math.min(from + ITEMS_PER_REPORT, row.total_items);
  // Items hashed at submission: SQLite pairs each identifier key's hash with the person key's (the hash
  // the item's results are cached under, enrichment/result-cache.ts, so an erasure reaches them after retention
  // too), once per pair, with no work per item here. This runs at the head of a new batch's steps.
  const chunk = "idx >= ? AND idx < ? AND erased_at IS NULL AND hashes IS";
  const { hashed } = sql
    .exec<{ hashed: string }>(
      `SELECT json_group_array(DISTINCT json_array(key.value, items.hashes ->> '$.person')) AS hashed
FROM items, json_each(items.hashes, '$.keys') AS key WHERE ${chunk} NOT NULL`,
      from,
      through,
    )
    .one();
  const entries: PersonIndexEntry[] = JSON.parse(hashed);
  // Items invalid at submission have no hashes, but their input may still identify someone: hashed now.
  const unhashed = sql.exec<{ input: string }>(`SELECT input FROM items WHERE ${chunk} NULL`, from, through).toArray();
  const hasher = personHasher(env, { customerId: row.customer_id, environment: row.environment });
  for (const { input } of unhashed) {
    const item = storedItemKeys(input);
    if (item === null) continue;
    const [person, ...keys] = await hasher.hash([item.personKey, ...item.keys]);
    entries.push(...keys.map((key): PersonIndexEntry => [key, person!]));
  }
  return { entries, through };
}

/** The account stored the chunk: the next report sends the one after. */
export const noteIndexed = (sql: SqlStorage, through: number): void =>
  void sql.exec("UPDATE batch SET people_indexed = max(people_indexed, ?)", through);
