import type { SuppressionList } from "../views";
import { KEYS } from "./bound-keys";
import { type SuppressionPage, suppressionPaging } from "./suppression-query";

// The account's do-not-enrich list (docs/storage.md, suppressions), which the consumer checks
// (privacy/suppression-check.ts). Every key here, as in the account's other privacy tables, is a
// keyed hash of an identifier key (contact-info/person-keys.ts); nothing here names a person.

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
export function listSuppressions(sql: SqlStorage, page: SuppressionPage): SuppressionList {
  const { shown, nextCursor } = suppressionPaging.rows<{ key: string; created_at: string }>(
    sql,
    { columns: "key, created_at", from: "suppressions", id: "key" },
    page,
  );
  return { suppressions: shown.map((row) => ({ key: row.key, createdAt: row.created_at })), nextCursor };
}
