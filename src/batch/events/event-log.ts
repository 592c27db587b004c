import type { BatchSummary } from "../../contact-info/batch-views";
import { readStatusRow, summary } from "../batch-row";
import { ITEM_JSON } from "../item-store";

// The batch's event log, in its SQLite (docs/storage.md): each finished item carries its
// event number (items.event_seq), handed out in turn from batch.event_seq, so an event's
// id outlives the object's memory and a reconnect resumes exactly after it. Items are
// numbered when the log is read, in index order: whatever ended them (a record, a timeout,
// invalid at submission, a leader's result), and whoever reads first, every finished item
// gets one number, and a later one only ever a higher number.

/** One finished item's event: its number, and the item as the status route shows it (JSON). */
type ItemEvent = {
  seq: number;
  itemJson: string;
};

/** What the log holds after a point: the counters as of its last event, and the item events after it. */
export interface EventSnapshot {
  /** The number of the batch's last event; 0 before any item finished. */
  seq: number;
  summary: BatchSummary;
  /** Item events numbered after the point asked for, in order, at most the limit asked for. */
  items: ItemEvent[];
}

/** Numbers the finished items that have no event number yet; cost proportional to them (items_unnumbered). */
function numberFinished(storage: DurableObjectStorage): void {
  storage.transactionSync(() => {
    const numbered = storage.sql
      .exec(
        `UPDATE items SET event_seq = (SELECT event_seq FROM batch) + n.rank
         FROM (SELECT idx, row_number() OVER (ORDER BY idx) AS rank
               FROM items INDEXED BY items_unnumbered WHERE event_seq IS NULL AND status <> 'pending') AS n
         WHERE items.idx = n.idx
         RETURNING 1`,
      )
      .toArray().length;
    if (numbered > 0) storage.sql.exec("UPDATE batch SET event_seq = event_seq + ?", numbered);
  });
}

/** The log after event `after`, or null when the batch is gone (deleted, expired, never created). */
export function readEvents(storage: DurableObjectStorage, after: number, itemLimit: number): EventSnapshot | null {
  const row = readStatusRow(storage.sql);
  if (!row || row.deleted_at !== null || row.expired_at !== null) return null;
  numberFinished(storage);
  const { seq } = storage.sql.exec<{ seq: number }>("SELECT event_seq AS seq FROM batch").one();
  const items =
    itemLimit === 0 || after >= seq
      ? []
      : storage.sql
          .exec<ItemEvent>(
            `SELECT event_seq AS seq, ${ITEM_JSON} AS itemJson FROM items WHERE event_seq > ? ORDER BY event_seq LIMIT ?`,
            after,
            itemLimit,
          )
          .toArray();
  return { seq, summary: summary(row), items };
}
