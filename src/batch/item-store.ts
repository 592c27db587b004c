import type { ItemDeferral, ItemOutcome, NewItem } from "../contact-info/batch-contract";
import type { ItemError } from "../contact-info/contact";
import type { StatusPage } from "../contact-info/status-query";
import { encodeItemCursor } from "../http/item-cursor";
import { keepEarlierFinds } from "./record/earlier-finds";

// SQL of the items table (docs/storage.md): inserts, pages, the deadline and deferrals, which are pending;
// what record() writes is in record/record-outcomes.ts, retention's delete in privacy/storage/retention.ts.
// Only pending items ever change, and the batch counters change in the same transaction as the
// items they count.

// Rows go in as one JSON array bound to one parameter per statement (workerd allows 100
// bound parameters, ten rows of ours), in chunks well under the 2 MB a value may have.
// jsonb_each (SQLite 3.51; workerd 1.20261102 has 3.53), not json_each: it hands each row
// over as binary JSON, so the columns' `->>` read it without parsing the row's text once
// per column (the insert took 44% less time, measured in workerd).
const MAX_INSERT_CHUNK_CHARS = 500_000;
const INSERT_ITEMS = `INSERT INTO items (idx, external_id, input, status, error_code, error_message, finished_at, leader_idx, person, person_key,
    enqueued_at, enqueues, due_at, hashes)
  SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9,
    value ->> 10, value ->> 11, value ->> 10, value ->> 12
  FROM jsonb_each(?)
  WHERE true
  ON CONFLICT (idx) DO NOTHING`;

export interface ItemsToInsert {
  /** The index of `items[0]` in the batch: 0, or where a staged chunk starts. */
  firstIndex: number;
  items: readonly NewItem[];
  /** Per item, the index of the item it duplicates (leaderIndexes over the whole batch), or null. */
  leaders: readonly (number | null)[];
  createdAt: string;
  /** How many of these items' leaders, in order, `create` sends right after storing them: the first window. */
  sentAtCreation: number;
}

/**
 * Stores items of a new batch. The leaders `create` sends right after (the first
 * fan-out window) are stored as enqueued once, at creation; if that fails the
 * fan-out sends them and sets the time (batch/fan-out.ts). An item already stored (a
 * staged chunk sent again by a retried submit) is kept as it is.
 */
export function insertItems(
  sql: SqlStorage,
  { firstIndex, items, leaders, createdAt, sentAtCreation }: ItemsToInsert,
): void {
  let chunk: string[] = [];
  let chars = 0;
  let sent = 0;
  const flush = () => {
    if (chunk.length > 0) sql.exec(INSERT_ITEMS, `[${chunk.join(",")}]`);
    chunk = [];
    chars = 0;
  };
  items.forEach((item, offset) => {
    const leader = item.error === null && leaders[offset] === null;
    const enqueued = leader && sent < sentAtCreation;
    if (enqueued) sent++;
    const row = JSON.stringify([
      firstIndex + offset,
      item.externalId,
      JSON.stringify(item.input),
      item.error ? "failed" : "pending",
      item.error?.code ?? null,
      item.error?.message ?? null,
      item.error ? createdAt : null,
      leaders[offset] ?? null,
      item.error === null ? JSON.stringify(item.person) : null,
      item.error === null ? item.personKey : null,
      enqueued ? createdAt : null,
      enqueued ? 1 : 0,
      item.error === null ? JSON.stringify(item.hashes) : null,
    ]);
    if (chars + row.length > MAX_INSERT_CHUNK_CHARS) flush();
    chunk.push(row);
    chars += row.length + 1;
  });
  flush();
}

// An item as the status page shows it (itemViewSchema), concatenated from columns that
// already hold JSON, so SQLite neither parses nor re-renders them.
export const ITEM_JSON = `'{"index":' || idx || ',"externalId":' || json_quote(external_id) || ',"status":' || json_quote(status)
  || ',"outcome":' || json_quote(outcome) || CASE WHEN reason IS NULL THEN '' ELSE ',"reason":' || json_quote(reason) END
  || ',"input":' || input
  || ',"emails":' || coalesce(emails, '[]') || ',"phones":' || coalesce(phones, '[]')
  || ',"error":' || CASE WHEN error_code IS NULL THEN 'null' ELSE json_object('code', error_code, 'message', coalesce(error_message, '')) END
  || ',"fromCache":' || CASE WHEN from_cache = 1 THEN 'true' ELSE 'false' END || ',"credits":' || credits
  || ',"sources":' || coalesce(sources, '[]')
  || CASE WHEN erased_at IS NULL THEN '' ELSE ',"erasedAt":' || json_quote(erased_at) END || '}'`;

/**
 * One page of items as a JSON array of items (itemViewSchema), rendered by SQLite: no
 * per-item objects cross the RPC boundary or get parsed and re-serialized in
 * the Worker. The cursor is an item index, so a filtered page resumes exactly
 * where the last one ended; whether there is a next page is one index lookup past the last.
 */
export function itemsPage(sql: SqlStorage, page: StatusPage): { itemsJson: string; nextCursor: string | null } {
  const filter = page.status ? "status = ?" : "1";
  const status = page.status ? [page.status] : [];
  const { items, count, last } = sql
    .exec<{ items: string; count: number; last: number | null }>(
      `SELECT '[' || coalesce(group_concat(item, ','), '') || ']' AS items, count(*) AS count, max(idx) AS last
       FROM (SELECT ${ITEM_JSON} AS item, idx FROM items WHERE idx >= ? AND ${filter} ORDER BY idx LIMIT ?)`,
      page.fromIndex,
      ...status,
      page.limit,
    )
    .one();
  const next =
    count < page.limit || last === null
      ? undefined
      : sql
          .exec<{ idx: number }>(
            `SELECT idx FROM items WHERE idx > ? AND ${filter} ORDER BY idx LIMIT 1`,
            last,
            ...status,
          )
          .toArray()[0];
  return { itemsJson: items, nextCursor: next ? encodeItemCursor(next.idx) : null };
}

/** The deadline passed: an outcome failing each pending item that is not merged into another (followers take their leader's). */
export function timedOutItems(sql: SqlStorage, error: ItemError): ItemOutcome[] {
  return sql
    .exec<{ idx: number }>("SELECT idx FROM items WHERE status = 'pending' AND leader_idx IS NULL")
    .toArray()
    .map(({ idx }) => ({ index: idx, status: "failed", error, sources: [] }));
}

export const PENDING_AMONG =
  "SELECT idx FROM items WHERE idx IN (SELECT value FROM json_each(?)) AND status = 'pending'";

/** Of `indexes`, the items still pending: one search of items_by_status each. */
export function pendingAmong(sql: SqlStorage, indexes: readonly number[]): number[] {
  return sql
    .exec<{ idx: number }>(PENDING_AMONG, JSON.stringify(indexes))
    .toArray()
    .map(({ idx }) => idx);
}

/**
 * Items whose message went back to the queue to wait (a source's Retry-After, or
 * the backoff) are due when the wait ends: the re-drive counts from then, never
 * from the send, so a long wait is not mistaken for a lost message.
 */
export function deferItems(sql: SqlStorage, deferrals: readonly ItemDeferral[]): void {
  if (deferrals.length === 0) return;
  keepEarlierFinds(sql, deferrals);
  sql.exec(
    `UPDATE items SET due_at = max(coalesce(due_at, ''), d.value ->> 1)
     FROM jsonb_each(?) AS d
     WHERE items.idx = d.value ->> 0 AND +items.status = 'pending'`,
    JSON.stringify(deferrals.map(({ index, dueAt }) => [index, dueAt])),
  );
}
