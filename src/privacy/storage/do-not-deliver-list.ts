import { type NewestFirstPage, newestFirstPaging } from "../../http/paging";
import type { DoNotDeliverList } from "../views";
import { KEYS } from "./bound-keys";

// The account's do-not-deliver list (docs/storage.md, do_not_deliver): keyed hashes of the contact
// values reported through POST …/feedback (contact-info/feedback.ts), which the consumer takes out
// of what it found (privacy/do-not-deliver.ts). Written by every report (a repeat too); listed and
// removed by its owner, as the do-not-enrich list is (GET and DELETE …/privacy/do-not-deliver).

/** The list's query, paged like the suppression list: its cursor carries "d:<createdAt>|<key>" of the last entry shown. */
export const doNotDeliverPaging = newestFirstPaging("d:", "[0-9a-f]{64}", 100);

/** Puts contact values (keyed hashes) on the list; idempotent. */
export function addUndeliverable(sql: SqlStorage, keys: readonly string[], createdAt: string): void {
  for (const key of keys)
    sql.exec("INSERT OR IGNORE INTO do_not_deliver (key, created_at) VALUES (?, ?)", key, createdAt);
}

/** Whether the key was listed (and is no more): its value may be delivered again. */
export const removeUndeliverable = (sql: SqlStorage, key: string): boolean =>
  sql.exec("DELETE FROM do_not_deliver WHERE key = ? RETURNING key", key).toArray().length > 0;

/** Whether the list holds anything: only then is what a group of items found screened. */
export const withholdsAny = (sql: SqlStorage): boolean =>
  sql.exec("SELECT 1 FROM do_not_deliver LIMIT 1").toArray().length > 0;

/** Of `keys` (hashed contact values), those listed. */
export function undeliverableAmong(sql: SqlStorage, keys: readonly string[]): string[] {
  return sql
    .exec<{ key: string }>(`SELECT key FROM do_not_deliver WHERE key IN (${KEYS})`, JSON.stringify(keys))
    .toArray()
    .map(({ key }) => key);
}

/** One page of the list, newest first. */
export function listUndeliverable(sql: SqlStorage, page: NewestFirstPage): DoNotDeliverList {
  const { shown, nextCursor } = doNotDeliverPaging.rows<{ key: string; created_at: string }>(
    sql,
    { columns: "key, created_at", from: "do_not_deliver", id: "key" },
    page,
  );
  return { doNotDeliver: shown.map((row) => ({ key: row.key, createdAt: row.created_at })), nextCursor };
}
