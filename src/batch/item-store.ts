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

export function insertItems(sql: SqlStorage, items: readonly NewItem[], createdAt: string): void {
  const leaders = leaderIndexes(items);
  items.forEach((item, index) => {
    sql.exec(
      `INSERT INTO items (idx, external_id, input, status, error_code, error_message, finished_at, leader_idx, person, person_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    );
  });
}

/**
 * One page of items as a JSON array of items (itemViewSchema), rendered by SQLite: no
 * per-item objects cross the RPC boundary or get parsed and re-serialized in
 * the Worker. The cursor is an item index, so a filtered page resumes exactly
 * where the last one ended.
 */
export function itemsPage(sql: SqlStorage, page: StatusPage): { itemsJson: string; nextCursor: string | null } {
  const filter = "idx >= ? AND (? IS NULL OR status = ?)";
  const args = [page.fromIndex, page.status ?? null, page.status ?? null];
  const { items } = sql
    .exec<{ items: string }>(
      `SELECT json_group_array(json(item)) AS items FROM (
         SELECT json_object(
           'index', idx, 'externalId', external_id, 'status', status, 'outcome', outcome, 'input', json(input),
           'emails', json(coalesce(emails, '[]')), 'phones', json(coalesce(phones, '[]')),
           'error', CASE WHEN error_code IS NULL THEN NULL ELSE json_object('code', error_code, 'message', coalesce(error_message, '')) END,
           'fromCache', json(CASE WHEN from_cache = 1 THEN 'true' ELSE 'false' END),
           'sources', json(coalesce(sources, '[]'))
         ) AS item
         FROM items WHERE ${filter} ORDER BY idx LIMIT ?)`,
      ...args,
      page.limit,
    )
    .one();
  const next = sql
    .exec<{ idx: number }>(`SELECT idx FROM items WHERE ${filter} ORDER BY idx LIMIT 1 OFFSET ?`, ...args, page.limit)
    .toArray()[0];
  return { itemsJson: items, nextCursor: next ? encodeCursor(next.idx) : null };
}

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
    for (const outcome of outcomes) {
      const values =
        outcome.status === "completed"
          ? [outcome.outcome, JSON.stringify(outcome.emails), JSON.stringify(outcome.phones), null, null, outcome.fromCache ? 1 : 0]
          : [null, null, null, outcome.error.code, outcome.error.message, 0];
      // Two statements, each on its own index: the item by its key, then its followers.
      const changed = ["idx = ?", "leader_idx = ?"].reduce(
        (sum, match) =>
          sum +
          storage.sql
            .exec(
              `UPDATE items SET status = ?, outcome = ?, emails = ?, phones = ?, error_code = ?, error_message = ?, from_cache = ?, finished_at = ?,
                 sources = ?
               WHERE ${match} AND status = 'pending' RETURNING idx`,
              outcome.status,
              ...values,
              finishedAt,
              JSON.stringify(outcome.sources),
              outcome.index,
            )
            .toArray().length,
        0,
      );
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
