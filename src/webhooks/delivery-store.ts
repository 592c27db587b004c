import {
  type DeliveryStatus,
  type EndpointEvent,
  MAX_ATTEMPTS_KEPT,
  MAX_DELIVERIES_KEPT,
  MAX_RECOVER,
} from "./endpoint-events";
import type { Attempt } from "./post-event";

// Writing the hub's delivery log (docs/storage.md, "WebhookHub": deliveries and attempts); delivery-log.ts reads it.

/** A delivery of event `eventId` to each endpoint, due now; one already made for an endpoint is left alone. */
export function insertDeliveries(
  sql: SqlStorage,
  endpointIds: readonly string[],
  event: { eventId: string; type: EndpointEvent; payload: string; batchId?: string },
  now: number,
): string[] {
  const made: string[] = [];
  for (const endpointId of endpointIds) {
    const inserted = sql
      .exec<{ id: string }>(
        `INSERT INTO deliveries (id, endpoint_id, event_id, type, status, created_at, next_attempt_at, payload, batch_id)
         VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
        `msg_${crypto.randomUUID().replaceAll("-", "")}`,
        endpointId,
        event.eventId,
        event.type,
        new Date(now).toISOString(),
        now,
        event.payload,
        event.batchId ?? null,
      )
      .toArray();
    made.push(...inserted.map(({ id }) => id));
  }
  trimLog(sql);
  return made;
}

/** Past MAX_DELIVERIES_KEPT, the oldest finished deliveries go (pending ones are kept until they finish). */
function trimLog(sql: SqlStorage): void {
  const { n } = sql.exec<{ n: number }>("SELECT count(*) AS n FROM deliveries").one();
  if (n <= MAX_DELIVERIES_KEPT) return;
  sql.exec(
    `DELETE FROM deliveries WHERE seq IN
       (SELECT seq FROM deliveries WHERE status <> 'pending' ORDER BY seq LIMIT ?) RETURNING seq`,
    n - MAX_DELIVERIES_KEPT,
  );
  sql.exec("DELETE FROM attempts WHERE delivery_seq NOT IN (SELECT seq FROM deliveries)");
}

/** A delivery due: to its endpoint, or (endpointId null) to a batch's own webhookUrl with its secret, as the batch had them. */
export type DueDelivery = {
  seq: number;
  id: string;
  endpointId: string | null;
  ownUrl: string | null;
  ownSecret: string | null;
  payload: string;
  tries: number;
};

/** Deliveries due by `now`, the earliest first, at most `limit`. */
export function dueDeliveries(sql: SqlStorage, now: number, limit: number): DueDelivery[] {
  return sql
    .exec<DueDelivery>(
      `SELECT seq, id, endpoint_id AS endpointId, own_url AS ownUrl, own_secret AS ownSecret, payload, tries FROM deliveries
       WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?`,
      now,
      limit,
    )
    .toArray();
}

/**
 * A batch's own webhook (its webhookUrl), in the log beside the endpoints' deliveries: the delivery (its id
 * the event's, the webhook-id the receiver saw), made on its first attempt. The batch's WebhookSender
 * makes and retries its attempts, so the hub schedules none (next_attempt_at stays NULL) unless it is
 * redelivered. Answers its seq.
 */
export function ownDelivery(
  sql: SqlStorage,
  event: { id: string; url: string; secret: string; body: string },
  type: EndpointEvent,
  now: number,
): number {
  sql.exec(
    `INSERT INTO deliveries (id, own_url, own_secret, event_id, type, status, created_at, payload)
     VALUES (?, ?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT DO NOTHING`,
    event.id,
    event.url,
    event.secret,
    event.id,
    type,
    new Date(now).toISOString(),
    event.body,
  );
  trimLog(sql);
  return sql.exec<{ seq: number }>("SELECT seq FROM deliveries WHERE id = ?", event.id).one().seq;
}

/** Records an attempt and the delivery's new status, if the delivery is still there (its endpoint was not deleted meanwhile). */
export function saveAttempt(
  sql: SqlStorage,
  seq: number,
  attempt: Attempt & { at: number },
  next: { status: DeliveryStatus; nextAttemptAt: number | null },
): void {
  const updated = sql
    .exec(
      "UPDATE deliveries SET status = ?, next_attempt_at = ?, tries = tries + 1 WHERE seq = ? RETURNING seq",
      next.status,
      next.nextAttemptAt,
      seq,
    )
    .toArray();
  if (updated.length === 0) return;
  sql.exec(
    "INSERT INTO attempts (delivery_seq, at, status_code, duration_ms, error) VALUES (?, ?, ?, ?, ?)",
    seq,
    new Date(attempt.at).toISOString(),
    attempt.statusCode,
    attempt.durationMs,
    attempt.error,
  );
  sql.exec(
    `DELETE FROM attempts WHERE delivery_seq = ? AND rowid NOT IN
       (SELECT rowid FROM attempts WHERE delivery_seq = ? ORDER BY rowid DESC LIMIT ?)`,
    seq,
    seq,
    MAX_ATTEMPTS_KEPT,
  );
}

/** The earliest time the alarm is needed for a pending delivery; null when none is pending. */
export const nextDue = (sql: SqlStorage): number | null =>
  sql.exec<{ at: number | null }>("SELECT min(next_attempt_at) AS at FROM deliveries WHERE status = 'pending'").one()
    .at;

/** When the oldest delivery leaves the log; null when the log is empty. */
export const oldestCreatedAt = (sql: SqlStorage): string | null =>
  sql.exec<{ at: string | null }>("SELECT min(created_at) AS at FROM deliveries").one().at;

/** Deletes the deliveries made before `cutoff` (ISO), and their attempts. */
export function deleteOlderThan(sql: SqlStorage, cutoff: string): number {
  sql.exec("DELETE FROM attempts WHERE delivery_seq IN (SELECT seq FROM deliveries WHERE created_at < ?)", cutoff);
  return sql.exec("DELETE FROM deliveries WHERE created_at < ? RETURNING seq", cutoff).toArray().length;
}

/** Due now with a fresh schedule, keeping its id: redeliver, and recover. */
export function resend(sql: SqlStorage, id: string, now: number): boolean {
  return (
    sql
      .exec(
        "UPDATE deliveries SET status = 'pending', next_attempt_at = ?, tries = 0 WHERE id = ? RETURNING seq",
        now,
        id,
      )
      .toArray().length > 0
  );
}

/** Re-sends the endpoint's deliveries since `since` (ISO) that have not succeeded, the oldest first, at most MAX_RECOVER. */
export function recover(sql: SqlStorage, endpointId: string, since: string, now: number): number {
  return sql
    .exec(
      `UPDATE deliveries SET status = 'pending', next_attempt_at = ?, tries = 0
       WHERE seq IN (SELECT seq FROM deliveries WHERE endpoint_id = ? AND created_at >= ? AND status <> 'succeeded'
                     ORDER BY seq LIMIT ?) RETURNING seq`,
      now,
      endpointId,
      since,
      MAX_RECOVER,
    )
    .toArray().length;
}
