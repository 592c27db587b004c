import { emptyUsage, tally } from "../account/usage";
import type { Prices } from "../config";
import type { ItemError } from "../contact-info/contact";
import type { StatusPage } from "../contact-info/status-query";
import { addFinished, type BatchRow } from "./batch-row";
import type { ItemDeferral, ItemOutcome, NewItem } from "./contract";
import { type ChargedOutcome, chargeOutcomes } from "./credits";
import { encodeItemCursor } from "./cursor";
import { keepEarlierFinds, withEarlierFinds } from "./earlier-finds";
import { pendingAmong } from "./erase";
import { appendOutbox } from "./outbox";
import { deleteItems } from "./scrub";

// SQL of the items table (docs/storage.md). Only pending items ever change, and
// the batch counters change in the same transaction as the items they count.

// Rows go in as one JSON array bound to one parameter per statement (workerd allows 100
// bound parameters, ten rows of ours), in chunks well under the 2 MB a value may have.
// jsonb_each (SQLite 3.51; workerd 1.20261102 has 3.53), not json_each: it hands each row
// over as binary JSON, so the columns' `->>` read it without parsing the row's text once
// per column (the insert took 44% less time, measured in workerd).
const MAX_INSERT_CHUNK_CHARS = 500_000;
const INSERT_ITEMS = `INSERT INTO items (idx, external_id, input, status, error_code, error_message, finished_at, leader_idx, person, person_key,
    enqueued_at, enqueues, due_at)
  SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9,
    value ->> 10, value ->> 11, value ->> 10
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
 * fan-out sends them and sets the time (fan-out.ts). An item already stored (a
 * staged chunk sent again by a retried submit) is kept as it is.
 */
export function insertItems(sql: SqlStorage, { firstIndex, items, leaders, createdAt, sentAtCreation }: ItemsToInsert): void {
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
      item.person ? JSON.stringify(item.person) : null,
      item.personKey ?? null,
      enqueued ? createdAt : null,
      enqueued ? 1 : 0,
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
      : sql.exec<{ idx: number }>(`SELECT idx FROM items WHERE idx > ? AND ${filter} ORDER BY idx LIMIT 1`, last, ...status).toArray()[0];
  return { itemsJson: items, nextCursor: next ? encodeItemCursor(next.idx) : null };
}

/**
 * Outcomes, as one JSON array of rows (outcomeRow), applied by one statement: each
 * finds its item by primary key, and changes it only while it is pending. The
 * unary + keeps the planner off items_by_status, which would walk every pending item.
 * jsonb_each as in INSERT_ITEMS (here 29% less time).
 */
export const RECORD_ITEMS = `UPDATE items SET status = o.value ->> 1, outcome = o.value ->> 2, emails = o.value ->> 3, phones = o.value ->> 4,
    error_code = o.value ->> 5, error_message = o.value ->> 6, from_cache = o.value ->> 7, sources = o.value ->> 8, finished_at = ?2,
    credits = o.value ->> 9, found_earlier = NULL
  FROM jsonb_each(?1) AS o
  WHERE items.idx = o.value ->> 0 AND +items.status = 'pending'
  RETURNING items.idx`;

/** The followers of the leaders just recorded take their results, found through items_by_leader; not their credits (a duplicate costs 0). */
export const RECORD_FOLLOWERS = `UPDATE items SET status = l.status, outcome = l.outcome, emails = l.emails, phones = l.phones,
    error_code = l.error_code, error_message = l.error_message, from_cache = l.from_cache, sources = l.sources, finished_at = l.finished_at
  FROM (SELECT value AS idx FROM json_each(?1)) AS recorded JOIN items AS l ON l.idx = recorded.idx
  WHERE items.leader_idx = recorded.idx AND items.status = 'pending'
  RETURNING items.leader_idx AS idx`;

const outcomeRow = (outcome: ChargedOutcome) =>
  outcome.status === "completed"
    ? [
        outcome.index,
        "completed",
        outcome.outcome,
        JSON.stringify(outcome.emails),
        JSON.stringify(outcome.phones),
        null,
        null,
        outcome.fromCache ? 1 : 0,
        JSON.stringify(outcome.sources),
        outcome.credits,
      ]
    : [outcome.index, "failed", null, null, null, outcome.error.code, outcome.error.message, 0, JSON.stringify(outcome.sources), 0];

/**
 * Applies outcomes to the items still pending and to their followers (items of
 * this batch with the same person), and to the counters, in one transaction.
 * A redelivered message or a repeated call never counts twice; of two outcomes
 * for one item in the same call, the first is recorded. Items are charged
 * (credits.ts) in the same transaction, against the batch's maxCredits, so the
 * cap holds however many records run at once. Answers the items completed and
 * failed, the batch's completedAt when they completed it, the indexes of the
 * outcomes recorded, and the outcomes as recorded (budget_exhausted included).
 */
export function settleItems(
  storage: DurableObjectStorage,
  row: BatchRow,
  outcomes: readonly ItemOutcome[],
  prices: Prices,
): { completed: number; failed: number; completedAt: string | null; recorded: number[]; outcomes: ChargedOutcome[] } {
  const finishedAt = new Date().toISOString();
  const first = new Map<number, ChargedOutcome>();
  let completed = 0;
  let failed = 0;
  let completedAt: string | null = null;
  const usage = emptyUsage();
  // Items changed, per outcome: the item itself, and its followers.
  const changed = new Map<number, number>();
  storage.transactionSync(() => {
    const firsts = new Map<number, ItemOutcome>();
    for (const outcome of withEarlierFinds(storage.sql, outcomes)) if (!firsts.has(outcome.index)) firsts.set(outcome.index, outcome);
    const budget = storage.sql
      .exec<{ charged: number; maxCredits: number | null }>("SELECT credits_charged AS charged, max_credits AS maxCredits FROM batch")
      .one();
    const pending = new Set(pendingAmong(storage.sql, [...firsts.keys()]));
    const charged = chargeOutcomes([...firsts.values()], pending, budget, prices);
    for (const outcome of charged.outcomes) first.set(outcome.index, outcome);
    const count = (rows: Iterable<{ idx: number }>) => {
      for (const { idx } of rows) changed.set(idx, (changed.get(idx) ?? 0) + 1);
    };
    count(storage.sql.exec<{ idx: number }>(RECORD_ITEMS, JSON.stringify([...first.values()].map(outcomeRow)), finishedAt));
    // Most batches have no duplicate people: then the followers' statement is not run at all.
    if (changed.size > 0 && storage.sql.exec("SELECT 1 FROM items WHERE leader_idx IS NOT NULL LIMIT 1").toArray().length > 0) {
      count(storage.sql.exec<{ idx: number }>(RECORD_FOLLOWERS, JSON.stringify([...changed.keys()])));
    }
    for (const [index, items] of changed) {
      const outcome = first.get(index)!;
      if (outcome.status === "completed") completed += items;
      else failed += items;
      tally(usage, outcome, items);
      usage.credits += outcome.credits;
    }
    completedAt = addFinished(storage.sql, row, { completed, failed, credits: charged.credits }, finishedAt);
    appendOutbox(storage.sql, finishedAt, usage);
  });
  return { completed, failed, completedAt, recorded: [...changed.keys()], outcomes: [...first.values()] };
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

/** The deadline passed: an outcome failing each pending item that is not merged into another (followers take their leader's). */
export function timedOutItems(sql: SqlStorage, error: ItemError): ItemOutcome[] {
  return sql
    .exec<{ idx: number }>("SELECT idx FROM items WHERE status = 'pending' AND leader_idx IS NULL")
    .toArray()
    .map(({ idx }) => ({ index: idx, status: "failed", error, sources: [] }));
}

/**
 * Retention: the items go; the batch row stays as a tombstone (no personal data) so its URL can answer 410.
 * The expiry is reported to the account, which drops the batch from its person index.
 */
export function expireItems(storage: DurableObjectStorage): void {
  const expiredAt = new Date().toISOString();
  storage.transactionSync(() => {
    deleteItems(storage);
    storage.sql.exec("UPDATE batch SET expired_at = ?", expiredAt);
    appendOutbox(storage.sql, expiredAt, emptyUsage(), { register: true });
  });
}
