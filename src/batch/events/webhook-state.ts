import { log, logError } from "../../base/log";
import type { CompletedBatch, WebhookAttempt } from "../../contact-info/webhook-event";
import { type BatchRow, summary } from "../batch-row";
import { retryStepLater, stepSucceeded } from "../step-retry";

// SQL of the webhook's delivery state on the batch row: pending → queued → delivered | failed.

/** Put on its queue (again): when, and how many times. */
function markWebhookQueued(sql: SqlStorage): void {
  sql.exec(
    "UPDATE batch SET webhook_state = 'queued', webhook_queued_at = ?, webhook_enqueues = webhook_enqueues + 1 WHERE webhook_state IN ('pending', 'queued')",
    new Date().toISOString(),
  );
}

/** One delivery attempt, recorded only while the webhook is queued; `refused` says why it was not sent. */
export function saveWebhookAttempt(sql: SqlStorage, attempt: WebhookAttempt): void {
  sql.exec(
    "UPDATE batch SET webhook_attempts = webhook_attempts + 1, webhook_last_status = ?, webhook_state = ?, webhook_attempted_at = ?, webhook_refused = ? WHERE webhook_state = 'queued'",
    attempt.status,
    attempt.state,
    new Date().toISOString(),
    attempt.refused ?? null,
  );
}

export function failQueuedWebhook(sql: SqlStorage): void {
  sql.exec("UPDATE batch SET webhook_state = 'failed' WHERE webhook_state = 'queued'");
}

/** Hands the webhook to its queue: the first time, or again when its message was lost. False when it must be tried later. */
export async function sendWebhook(queue: Queue, storage: DurableObjectStorage, row: BatchRow): Promise<boolean> {
  try {
    await queue.send({ batchId: row.id });
  } catch (error) {
    logError("webhook_enqueue_failed", error, { batchId: row.id });
    await retryStepLater(storage, "send_webhook");
    return false;
  }
  stepSucceeded(storage, "send_webhook");
  markWebhookQueued(storage.sql);
  if (row.webhook_state === "queued")
    log("webhook_redriven", { batchId: row.id, attempts: row.webhook_attempts, enqueues: row.webhook_enqueues + 1 });
  return true;
}

/** A lost webhook used its attempts or enqueues. */
export function failWebhook(sql: SqlStorage, row: BatchRow): boolean {
  failQueuedWebhook(sql);
  log("webhook_abandoned", { batchId: row.id, attempts: row.webhook_attempts, enqueues: row.webhook_enqueues });
  return true;
}

/** The batch.completed event's data, while the webhook awaits delivery; null otherwise (or once the batch was deleted). */
export function completedBatchEvent(row: BatchRow): CompletedBatch | null {
  if (
    row.deleted_at !== null ||
    !row.webhook_url ||
    !row.webhook_secret ||
    row.completed_at === null ||
    row.webhook_state !== "queued"
  )
    return null;
  return {
    summary: { ...summary(row), completedAt: row.completed_at },
    customerId: row.customer_id,
    environment: row.environment,
    statusUrl: row.status_url,
    webhookUrl: row.webhook_url,
    secret: row.webhook_secret,
  };
}
