// SQL of the webhook's delivery state on the batch row: pending → queued → delivered | failed.

/** Put on its queue (again): when, and how many times. */
export function markWebhookQueued(sql: SqlStorage): void {
  sql.exec(
    "UPDATE batch SET webhook_state = 'queued', webhook_queued_at = ?, webhook_enqueues = webhook_enqueues + 1 WHERE webhook_state IN ('pending', 'queued')",
    new Date().toISOString(),
  );
}

/** One delivery attempt, recorded only while the webhook is queued. */
export function saveWebhookAttempt(sql: SqlStorage, attempt: { status: number | null; state: "queued" | "delivered" | "failed" }): void {
  sql.exec(
    "UPDATE batch SET webhook_attempts = webhook_attempts + 1, webhook_last_status = ?, webhook_state = ?, webhook_attempted_at = ? WHERE webhook_state = 'queued'",
    attempt.status,
    attempt.state,
    new Date().toISOString(),
  );
}

export function failQueuedWebhook(sql: SqlStorage): void {
  sql.exec("UPDATE batch SET webhook_state = 'failed' WHERE webhook_state = 'queued'");
}
