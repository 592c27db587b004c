import { backoff } from "../base/backoff";
import { log, logError } from "../base/log";
import type { ItemOutcome, NewBatch } from "../contact-info/batch-contract";
import { itemErrors } from "../contact-info/item-errors";
import {
  chunkForSend,
  ITEMS_PER_MESSAGE,
  MAX_MESSAGES_PER_SEND,
  MESSAGE_CONTENT_TYPE,
  type MessageBatchFields,
  type MessageItem,
  messageBatchSchema,
  packMessages,
  queuedItems,
  STORED_PERSON_COLUMNS,
  type StoredPerson,
  sendSplitting,
  storedPersonItem,
} from "../queue-messages/item-message";
import type { BatchRow } from "./batch-row";
import { itemRedrive, redriveCutoff } from "./next-step";

// After a failed send, the alarm tries again in 1 s, then 2, 4, … up to a minute.
const enqueueBackoff = backoff({ baseSeconds: 1, maxSeconds: 60 });

// Items read for one send: a full sendBatch of full messages.
const ITEMS_PER_SEND = MAX_MESSAGES_PER_SEND * ITEMS_PER_MESSAGE;
// Sends per alarm run (20,000 items at most): bounds one run's duration; the alarm re-arms to continue.
const MAX_SENDS_PER_ALARM = 20;

/**
 * Runs work on the item queue, for the alarm. When its sends ran out it goes on
 * at once in the next run; when the queue failed, after a backoff that grows
 * with the failures so far. False in both cases.
 */
export async function enqueueing(
  storage: DurableObjectStorage,
  row: BatchRow,
  work: () => Promise<boolean>,
): Promise<boolean> {
  try {
    if (await work()) return true;
    await storage.setAlarm(Date.now());
  } catch (error) {
    const failures = row.enqueue_failures + 1;
    storage.sql.exec("UPDATE batch SET enqueue_failures = ?", failures);
    const delay = enqueueBackoff(failures);
    logError("batch_enqueue_failed", error, { batchId: row.id, failures, retryInSeconds: delay });
    await storage.setAlarm(Date.now() + delay * 1000);
  }
  return false;
}

/** What the fan-out needs of the batch object. */
export interface FanOutTarget {
  storage: DurableObjectStorage;
  queue: Queue;
  /** Records outcomes, finishing the batch if they complete it. */
  record(outcomes: ItemOutcome[]): Promise<{ failed: number }>;
  /** Items recorded meanwhile (by the consumer, or failed here) can complete the batch. */
  isComplete(): boolean;
}

type StoredItem = StoredPerson & { enqueues: number };

/**
 * A new batch's fan-out, from the items `create` still holds, as soon as they are
 * stored: no read-back, and no second check of what the submit validated a moment
 * ago. It sends the first `window` leaders (stored as enqueued once, at creation);
 * the rest go as items are recorded (fanOut). Progress is saved after every send,
 * so if a send fails, or the object restarts midway, the alarm's fanOut resumes
 * from there.
 */
export async function fanOutNew(target: FanOutTarget, batch: NewBatch, window: number): Promise<void> {
  const items: MessageItem[] = [];
  let rest = false;
  batch.items.forEach((item, index) => {
    if (item.error !== null || batch.leaders[index] !== null) return;
    if (items.length === window) {
      rest = true;
      return;
    }
    items.push({ index, person: item.person, personKey: item.personKey, hashes: item.hashes });
  });
  const shared = {
    batchId: batch.id,
    customerId: batch.customerId,
    environment: batch.environment,
    fields: batch.fields,
    maxAgeDays: batch.maxAgeDays,
  };
  await enqueue(target, shared, items, (sent) => setNextEnqueueIndex(target.storage.sql, sent));
  if (rest) return;
  target.storage.sql.exec("UPDATE batch SET next_enqueue_index = total_items");
  log("batch_enqueued", { batchId: batch.id, items: batch.items.length });
}

/**
 * Enqueues pending leaders from where the last run stopped, at most `room` of
 * them (what the window has free), for a batch whose window was recorded, whose
 * first sends failed, or whose object restarted midway. Progress is saved after
 * every send: a failure resends at most one chunk, and recording is idempotent,
 * so a resent item is harmless. True when the window is full, every item is
 * enqueued, or the batch completed meanwhile; false when this run's sends ran out.
 */
export async function fanOut(target: FanOutTarget, row: BatchRow, room: number): Promise<boolean> {
  const { sql } = target.storage;
  let left = room;
  for (let sends = 0; sends < MAX_SENDS_PER_ALARM; ) {
    if (left <= 0) return true;
    const items = sql
      .exec<StoredItem>(
        `SELECT ${STORED_PERSON_COLUMNS}, enqueues FROM items WHERE idx >= (SELECT next_enqueue_index FROM batch) AND status = 'pending' AND leader_idx IS NULL ORDER BY idx LIMIT ?`,
        Math.min(ITEMS_PER_SEND, left),
      )
      .toArray();
    if (items.length === 0) {
      sql.exec("UPDATE batch SET next_enqueue_index = total_items");
      log("batch_enqueued", { batchId: row.id, items: row.total_items });
      return true;
    }
    left -= items.length;
    sends += await enqueue(target, batchFields(row), storedItems(items), (sent) => {
      // Their first enqueue (counted once, as at creation), now at last.
      markEnqueued(sql, sent, "enqueues = max(enqueues, 1)");
      setNextEnqueueIndex(sql, sent);
    });
    if (target.isComplete()) return true;
  }
  return false;
}

/**
 * The pending leaders due before a cutoff, oldest first: a range of items_by_due, named, since left to
 * itself the planner walks every pending item of items_by_status and sorts them (EXPLAIN QUERY PLAN).
 */
export const DUE_ITEMS = `SELECT ${STORED_PERSON_COLUMNS}, enqueues FROM items INDEXED BY items_by_due
  WHERE status = 'pending' AND leader_idx IS NULL AND due_at IS NOT NULL AND due_at <= ? ORDER BY due_at, idx LIMIT ?`;

/**
 * Resends pending items due REDRIVE_AFTER_SECONDS ago or longer (their message
 * was lost), oldest first; an item enqueued MAX_ITEM_ENQUEUES times fails
 * instead. True when none is left due (or the batch completed); false when this
 * run's sends ran out first.
 */
export async function redrive(target: FanOutTarget, row: BatchRow, redriveAfterSeconds: number): Promise<boolean> {
  const cutoff = new Date(redriveCutoff(Date.now(), redriveAfterSeconds)).toISOString();
  let resent = 0;
  let failed = 0;
  try {
    for (let sends = 0; sends < MAX_SENDS_PER_ALARM; ) {
      const due = target.storage.sql.exec<StoredItem>(DUE_ITEMS, cutoff, ITEMS_PER_SEND).toArray();
      if (due.length === 0) return true;
      const exhausted = due.filter((item) => itemRedrive(item.enqueues) === "fail");
      if (exhausted.length > 0) {
        failed += (
          await target.record(
            exhausted.map(({ idx }) => ({ index: idx, status: "failed", error: itemErrors.messagesLost, sources: [] })),
          )
        ).failed;
        if (target.isComplete()) return true;
      }
      const again = due.filter((item) => itemRedrive(item.enqueues) === "resend");
      sends += await enqueue(target, batchFields(row), storedItems(again), (sent) => {
        markEnqueued(target.storage.sql, sent, "enqueues = enqueues + 1");
        resent += sent.length;
      });
    }
    return false;
  } finally {
    if (resent + failed > 0) log("items_redriven", { batchId: row.id, resent, failed });
  }
}

/**
 * Packs items into messages and sends them in chunks the queue accepts; `sent`
 * records the indexes of each chunk's items once the queue accepted it, in the
 * same transaction. Returns the sends made.
 */
async function enqueue(
  target: FanOutTarget,
  batch: MessageBatchFields,
  items: MessageItem[],
  sent: (indexes: number[]) => void,
): Promise<number> {
  const { messages, tooLarge } = packMessages(batch, queuedItems(batch.batchId, items));
  // Validation bounds every field, so this never happens; if it did, resending could never succeed.
  if (tooLarge.length > 0) {
    logError("item_too_large", new Error("item message over the queue's size limit"), {
      batchId: batch.batchId,
      items: tooLarge.length,
    });
    await target.record(
      tooLarge.map(({ index }) => ({ index, status: "failed", error: itemErrors.tooLargeToQueue, sources: [] })),
    );
  }
  let sends = 0;
  for (const chunk of chunkForSend(messages)) {
    await sendSplitting(chunk, async (part) => {
      await target.queue.sendBatch(part.map(({ json }) => ({ body: json, contentType: MESSAGE_CONTENT_TYPE })));
      sends++;
      target.storage.transactionSync(() => sent(part.flatMap((message) => message.items.map(({ index }) => index))));
    });
  }
  return sends;
}

function markEnqueued(sql: SqlStorage, indexes: readonly number[], enqueues: string): void {
  sql.exec(
    `UPDATE items SET enqueued_at = ?1, due_at = ?1, ${enqueues} WHERE idx IN (SELECT value FROM json_each(?2))`,
    new Date().toISOString(),
    JSON.stringify(indexes),
  );
}

/** Items go in index order, so everything before the last one sent is enqueued. */
function setNextEnqueueIndex(sql: SqlStorage, indexes: readonly number[]): void {
  sql.exec("UPDATE batch SET next_enqueue_index = max(next_enqueue_index, ?)", indexes[indexes.length - 1]! + 1);
}

/** What the batch's messages share, from its row (checked, as everything read back from storage is). */
const batchFields = (row: BatchRow): MessageBatchFields =>
  messageBatchSchema.parse({
    batchId: row.id,
    customerId: row.customer_id,
    environment: row.environment,
    fields: JSON.parse(row.fields),
    maxAgeDays: row.max_age_days,
  });

/** The items' message parts (storedPersonItem). */
const storedItems = (items: StoredItem[]): MessageItem[] => items.map(storedPersonItem);
