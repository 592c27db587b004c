import { type NewestFirstPage, newestFirstPaging } from "../../http/paging";
import { KEYS } from "./bound-keys";

// The account's two lists of keyed hashes (docs/storage.md): the do-not-enrich list (suppressions: hashes of
// identifier keys, contact-info/person-keys.ts, checked by the consumer before enriching, suppression-check.ts)
// and the do-not-deliver list (do_not_deliver: hashes of contact values reported through POST …/feedback,
// taken out of what the consumer found, do-not-deliver.ts). Both are a table of (key, created_at), written
// idempotently, listed newest first and removed by their owner (GET and DELETE …/privacy/<list>); nothing in
// either names a person. One helper serves both, so they cannot drift apart.

/** The lists, by their table's name: what the account's RPC methods take to say which. */
export type KeyedHashListName = "suppressions" | "do_not_deliver";

/** An entry as the API shows it (privacy/schemas.ts). */
export interface KeyedHashEntry {
  key: string;
  createdAt: string;
}

/** A list's query, paged like the batch list: its cursor carries "<prefix><createdAt>|<key>" of the last entry. */
const pagingOf = (prefix: string) => newestFirstPaging(prefix, "[0-9a-f]{64}", 100);

/** Each list's cursors, told apart by their prefix. */
export const keyedHashPaging: Record<KeyedHashListName, ReturnType<typeof pagingOf>> = {
  suppressions: pagingOf("s:"),
  do_not_deliver: pagingOf("d:"),
};

/** Adds keys not yet listed (a listed key keeps its date); answers how many were new. */
export function addKeys(sql: SqlStorage, list: KeyedHashListName, keys: readonly string[], createdAt: string): number {
  return sql
    .exec(
      `INSERT INTO ${list} (key, created_at) SELECT value, ? FROM json_each(?) WHERE true
       ON CONFLICT DO NOTHING RETURNING key`,
      createdAt,
      JSON.stringify(keys),
    )
    .toArray().length;
}

/** Whether the key was listed (and is no more). */
export const removeKey = (sql: SqlStorage, list: KeyedHashListName, key: string): boolean =>
  sql.exec(`DELETE FROM ${list} WHERE key = ? RETURNING key`, key).toArray().length > 0;

/** Of `keys`, those listed (one search of the primary key each). */
export function keysAmong(sql: SqlStorage, list: KeyedHashListName, keys: readonly string[]): string[] {
  if (keys.length === 0) return [];
  return sql
    .exec<{ key: string }>(`SELECT key FROM ${list} WHERE key IN (${KEYS})`, JSON.stringify(keys))
    .toArray()
    .map(({ key }) => key);
}

/** Whether the list holds anything. */
export const holdsAny = (sql: SqlStorage, list: KeyedHashListName): boolean =>
  sql.exec(`SELECT 1 FROM ${list} LIMIT 1`).toArray().length > 0;

/** One page of the list, newest first. */
export function pageOf(
  sql: SqlStorage,
  list: KeyedHashListName,
  page: NewestFirstPage,
): { entries: KeyedHashEntry[]; nextCursor: string | null } {
  const { shown, nextCursor } = keyedHashPaging[list].rows<{ key: string; created_at: string }>(
    sql,
    { columns: "key, created_at", from: list, id: "key" },
    page,
  );
  return { entries: shown.map((row) => ({ key: row.key, createdAt: row.created_at })), nextCursor };
}
