import { log, logError } from "../../base/log";
import { itemCompletedBody, itemEventId } from "../../contact-info/item-completed-event";
import type { WebhookEvent } from "../../contact-info/webhook-event";
import { MAX_ITEMS_PER_DELIVERY } from "../../contact-info/webhook-events";
import { MAX_MESSAGES_PER_SEND } from "../../queue-messages/item-message";
import type { WebhookMessage } from "../../queue-messages/webhook-message";
import type { BatchRow } from "../batch-row";
import { ITEM_JSON } from "../item-store";
import { MAX_WEBHOOK_ENQUEUES, redriveCutoff } from "../next-step";
import { retryStepLater, stepSucceeded } from "../step-retry";
import { appendEndpointItemEvents } from "./endpoint-item-events";

// SQL of the item.completed deliveries (docs/storage.md, item_deliveries). A delivery is
// written in the transaction that finished its items, like the outbox, so none is lost or
// made twice; then it goes pending → queued → delivered | failed, as batch.completed does
// on the batch row, through the same queue and the batch's WebhookSender.

/** Adds deliveries for items just finished (followers included), at most MAX_ITEMS_PER_DELIVERY each, if the batch subscribed. */
export function appendItemDeliveries(
  sql: SqlStorage,
  row: Pick<BatchRow, "item_webhooks">,
  indexes: readonly number[],
  finishedAt: string,
): void {
  if (row.item_webhooks !== 1 || indexes.length === 0) return;
  const sorted = [...indexes].sort((a, b) => a - b);
  for (let start = 0; start < sorted.length; start += MAX_ITEMS_PER_DELIVERY) {
    sql.exec(
      "INSERT INTO item_deliveries (items, finished_at, state) VALUES (?, ?, 'pending')",
      JSON.stringify(sorted.slice(start, start + MAX_ITEMS_PER_DELIVERY)),
      finishedAt,
    );
  }
}

/** A new batch's items that failed validation are finished at creation: their deliveries (and the endpoints' events) are written with them. */
export function appendInvalidItemDeliveries(sql: SqlStorage, createdAt: string): void {
  const row = sql.exec<{ item_webhooks: number }>("SELECT item_webhooks FROM batch").one();
  const failed = sql
    .exec<{ idx: number }>("SELECT idx FROM items WHERE status = 'failed' ORDER BY idx")
    .toArray()
    .map(({ idx }) => idx);
  appendEndpointItemEvents(sql, failed, createdAt);
  appendItemDeliveries(sql, row, failed, createdAt);
}

type DeliveryRow = { seq: number; state: string; attempts: number; enqueues: number };

/**
 * The alarm's step: puts deliveries never sent, and those `queued` with no activity
 * for REDRIVE_AFTER_SECONDS (their message was lost), on the webhook queue, one
 * sendBatch at a time; a lost one out of attempts or enqueues ends `failed`. False
 * when the queue refused, and the alarm was armed to try again.
 */
export async function sendItemDeliveries(
  queue: Queue<WebhookMessage>,
  storage: DurableObjectStorage,
  row: BatchRow,
  config: { redriveAfterSeconds: number; webhookMaxAttempts: number },
): Promise<boolean> {
  const cutoff = new Date(redriveCutoff(Date.now(), config.redriveAfterSeconds)).toISOString();
  const due = storage.sql
    .exec<DeliveryRow>(
      `SELECT seq, state, attempts, enqueues FROM item_deliveries
       WHERE state = 'pending' OR (state = 'queued' AND max(queued_at, coalesce(attempted_at, '')) <= ?)
       ORDER BY seq LIMIT ?`,
      cutoff,
      MAX_MESSAGES_PER_SEND,
    )
    .toArray();
  const lost = (delivery: DeliveryRow) =>
    delivery.state === "queued" &&
    (delivery.attempts >= config.webhookMaxAttempts || delivery.enqueues >= MAX_WEBHOOK_ENQUEUES);
  for (const delivery of due.filter(lost)) {
    failItemDelivery(storage.sql, delivery.seq);
    log("webhook_abandoned", {
      batchId: row.id,
      delivery: delivery.seq,
      attempts: delivery.attempts,
      enqueues: delivery.enqueues,
    });
  }
  const send = due.filter((delivery) => !lost(delivery));
  if (send.length === 0) return true;
  try {
    await queue.sendBatch(send.map(({ seq }) => ({ body: { batchId: row.id, delivery: seq } })));
  } catch (error) {
    logError("webhook_enqueue_failed", error, { batchId: row.id, deliveries: send.length });
    await retryStepLater(storage, "item_deliveries");
    return false;
  }
  stepSucceeded(storage, "item_deliveries");
  storage.sql.exec(
    `UPDATE item_deliveries SET state = 'queued', queued_at = ?, enqueues = enqueues + 1
     WHERE seq IN (SELECT value FROM json_each(?)) AND state IN ('pending', 'queued')`,
    new Date().toISOString(),
    JSON.stringify(send.map(({ seq }) => seq)),
  );
  for (const delivery of send.filter(({ state }) => state === "queued")) {
    log("webhook_redriven", {
      batchId: row.id,
      delivery: delivery.seq,
      attempts: delivery.attempts,
      enqueues: delivery.enqueues + 1,
    });
  }
  return true;
}

/** Delivery `seq`'s event while it awaits delivery; null otherwise, or once the batch was deleted or its items expired. */
export function itemDeliveryEvent(sql: SqlStorage, row: BatchRow, seq: number): WebhookEvent | null {
  if (row.deleted_at !== null || row.expired_at !== null || !row.webhook_url || !row.webhook_secret) return null;
  const delivery = sql
    .exec<{ items: string; finished_at: string }>(
      "SELECT items, finished_at FROM item_deliveries WHERE seq = ? AND state = 'queued'",
      seq,
    )
    .toArray()[0];
  if (!delivery) return null;
  const { items, count } = sql
    .exec<{ items: string; count: number }>(
      `SELECT '[' || coalesce(group_concat(item, ','), '') || ']' AS items, count(*) AS count
       FROM (SELECT ${ITEM_JSON} AS item FROM items WHERE idx IN (SELECT value FROM json_each(?)) ORDER BY idx)`,
      delivery.items,
    )
    .one();
  if (count === 0) return null;
  return {
    id: itemEventId(row.id, seq),
    url: row.webhook_url,
    environment: row.environment,
    secret: row.webhook_secret,
    body: itemCompletedBody(row.id, delivery.finished_at, items),
  };
}

/** One attempt at delivery `seq`, recorded only while it is queued. */
export function saveItemDeliveryAttempt(
  sql: SqlStorage,
  seq: number,
  attempt: { status: number | null; state: "queued" | "delivered" | "failed" },
): void {
  sql.exec(
    "UPDATE item_deliveries SET attempts = attempts + 1, last_status = ?, state = ?, attempted_at = ? WHERE seq = ? AND state = 'queued'",
    attempt.status,
    attempt.state,
    new Date().toISOString(),
    seq,
  );
}

export function failItemDelivery(sql: SqlStorage, seq: number): void {
  sql.exec("UPDATE item_deliveries SET state = 'failed' WHERE seq = ? AND state = 'queued'", seq);
}
