import { KEYS } from "./bound-keys";

// The account's do-not-deliver list (docs/storage.md, do_not_deliver): keyed hashes of the contact
// values reported through POST …/feedback (contact-info/feedback.ts), which the consumer takes out
// of what it found (privacy/do-not-deliver.ts). Written by every report (a repeat too), never removed.

/** Puts contact values (keyed hashes) on the list; idempotent. */
export function addUndeliverable(sql: SqlStorage, keys: readonly string[], createdAt: string): void {
  for (const key of keys)
    sql.exec("INSERT OR IGNORE INTO do_not_deliver (key, created_at) VALUES (?, ?)", key, createdAt);
}

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
