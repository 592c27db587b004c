import { emptyUsage, tally, tallyFailed } from "../account/usage";
import type { ItemError } from "../contact-info/contact";
import type { StatusPage } from "../contact-info/status-query";
import { addFinished, type BatchRow } from "./batch-row";
import type { ItemOutcome, NewItem } from "./contract";
import { encodeCursor } from "./cursor";
import { leaderIndexes } from "./leaders";
import { appendOutbox } from "./outbox";

// SQL of the items table (docs/storage.md). Only pending items ever change, and
// the batch counters change in the same transaction as the items they count.

// Rows go in as one JSON array bound to one parameter per statement (workerd allows 100
// bound parameters, ten rows of ours), in chunks well under the 2 MB a value may have.
const MAX_INSERT_CHUNK_CHARS = 500_000;
const INSERT_ITEMS = `INSERT INTO items (idx, external_id, input, status, error_code, error_message, finished_at, leader_idx, person, person_key)
  SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9
  FROM json_each(?)`;

export function insertItems(sql: SqlStorage, items: readonly NewItem[], createdAt: string): void {
  const leaders = leaderIndexes(items);
  let chunk: string[] = [];
  let chars = 0;
  const flush = () => {
    if (chunk.length > 0) sql.exec(INSERT_ITEMS, `[${chunk.join(",")}]`);
    chunk = [];
    chars = 0;
  };
  items.forEach((item, index) => {
    const row = JSON.stringify([
      index,
      item.externalId,
      JSON.stringify(item.input),
      item.error ? "failed" : "pending",
      item.error?.code ?? null,
      item.error?.message ?? null,
      item.error ? createdAt : null,
      leaders[index] ?? null,
      item.person ? JSON.stringify(item.person) : null,
      item.personKey ?? null,
    ]);
    if (chars + row.length > MAX_INSERT_CHUNK_CHARS) flush();
    chunk.push(row);
    chars += row.length + 1;
  });
  flush();
}

// An item as the status page shows it (itemViewSchema), concatenated from columns that
// already hold JSON, so SQLite neither parses nor re-renders them.
const ITEM_JSON = `'{"index":' || idx || ',"externalId":' || json_quote(external_id) || ',"status":' || json_quote(status)
  || ',"outcome":' || json_quote(outcome) || ',"input":' || input
  || ',"emails":' || coalesce(emails, '[]') || ',"phones":' || coalesce(phones, '[]')
  || ',"error":' || CASE WHEN error_code IS NULL THEN 'null' ELSE json_object('code', error_code, 'message', coalesce(error_message, '')) END
  || ',"fromCache":' || CASE WHEN from_cache = 1 THEN 'true' ELSE 'false' END
  || ',"sources":' || coalesce(sources, '[]') || '}'`;

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
      : sql.exec<{ idx: number }>(`SELECT idx FROM items WHERE idx > ? AND ${filter} ORDER BY idx LIMIT 1`, last, ...status).toArray()[0];
  return { itemsJson: items, nextCursor: next ? encodeCursor(next.idx) : null };
}

/** An item by its key, if still pending: a primary-key lookup. */
export const RECORD_ITEM = `UPDATE items SET status = ?1, outcome = ?2, emails = ?3, phones = ?4, error_code = ?5, error_message = ?6,
    from_cache = ?7, finished_at = ?8, sources = ?9
  WHERE idx = ?10 AND status = 'pending' RETURNING idx`;
/** The same for its followers, through items_by_leader: run only in batches that have followers. */
export const RECORD_FOLLOWERS = RECORD_ITEM.replace("WHERE idx = ?10", "WHERE leader_idx = ?10");

/**
 * Applies outcomes to the items still pending and to their followers (items of
 * this batch with the same person), and to the counters, in one transaction.
 * A redelivered message or a repeated call never counts twice.
 */
export function settleItems(
  storage: DurableObjectStorage,
  row: BatchRow,
  outcomes: readonly ItemOutcome[],
): { completed: number; failed: number } {
  const finishedAt = new Date().toISOString();
  let completed = 0;
  let failed = 0;
  const usage = emptyUsage();
  storage.transactionSync(() => {
    // Most batches have no duplicate people: then each outcome is one statement.
    const followed = storage.sql.exec("SELECT 1 FROM items WHERE leader_idx IS NOT NULL LIMIT 1").toArray().length > 0;
    for (const outcome of outcomes) {
      const values =
        outcome.status === "completed"
          ? [outcome.outcome, JSON.stringify(outcome.emails), JSON.stringify(outcome.phones), null, null, outcome.fromCache ? 1 : 0]
          : [null, null, null, outcome.error.code, outcome.error.message, 0];
      const args = [outcome.status, ...values, finishedAt, JSON.stringify(outcome.sources), outcome.index];
      let changed = storage.sql.exec(RECORD_ITEM, ...args).toArray().length;
      if (followed) changed += storage.sql.exec(RECORD_FOLLOWERS, ...args).toArray().length;
      if (outcome.status === "completed") completed += changed;
      else failed += changed;
      tally(usage, outcome, changed);
    }
    addFinished(storage.sql, row, completed, failed, finishedAt);
    appendOutbox(storage.sql, finishedAt, usage);
  });
  return { completed, failed };
}

/** Fails every item still pending, with the counters. */
export function failPendingItems(storage: DurableObjectStorage, row: BatchRow, error: ItemError): void {
  const finishedAt = new Date().toISOString();
  storage.transactionSync(() => {
    const failed = storage.sql
      .exec(
        "UPDATE items SET status = 'failed', error_code = ?, error_message = ?, finished_at = ? WHERE status = 'pending' RETURNING idx",
        error.code,
        error.message,
        finishedAt,
      )
      .toArray().length;
    addFinished(storage.sql, row, 0, failed, finishedAt);
    const usage = emptyUsage();
    tallyFailed(usage, failed);
    appendOutbox(storage.sql, finishedAt, usage);
  });
}

/** Retention: the items go; the batch row stays as a tombstone (no personal data) so its URL can answer 410. */
export function expireItems(storage: DurableObjectStorage): void {
  const expiredAt = new Date().toISOString();
  storage.transactionSync(() => {
    storage.sql.exec("DELETE FROM items");
    storage.sql.exec("UPDATE batch SET expired_at = ?", expiredAt);
  });
}
