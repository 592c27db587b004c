import * as z from "zod";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/paging";
import {
  ATTEMPT_ERRORS,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  ENDPOINT_EVENTS,
  type EndpointEvent,
  MAX_ATTEMPTS_KEPT,
  MAX_DELIVERIES_KEPT,
  MAX_RECOVER,
} from "./endpoint-events";
import type { Attempt } from "./post-event";
import type { DeliveryDetail, DeliveryView } from "./views";

// SQL of the hub's delivery log (docs/storage.md, "WebhookHub": deliveries and attempts).

type DeliveryRow = {
  seq: number;
  id: string;
  endpoint_id: string | null;
  type: string;
  status: string;
  created_at: string;
  next_attempt_at: number | null;
  attempts: string;
};

const storedAttempts = z.array(
  z.object({
    at: z.string(),
    statusCode: z.int().nullable(),
    durationMs: z.int(),
    error: z.enum(ATTEMPT_ERRORS).nullable(),
  }),
);

const selectView = (extra = "") => `SELECT seq, id, endpoint_id, type, status, created_at, next_attempt_at${extra},
    (SELECT json_group_array(json_object('at', at, 'statusCode', status_code, 'durationMs', duration_ms, 'error', error))
     FROM (SELECT * FROM attempts WHERE delivery_seq = deliveries.seq ORDER BY rowid)) AS attempts
  FROM deliveries`;

function viewOf(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    type: z.enum(ENDPOINT_EVENTS).parse(row.type),
    status: z.enum(DELIVERY_STATUSES).parse(row.status),
    createdAt: row.created_at,
    nextAttemptAt: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
    attempts: storedAttempts.parse(JSON.parse(row.attempts)),
  };
}

/** A delivery of event `eventId` to each endpoint, due now; one already made for an endpoint is left alone. */
export function insertDeliveries(
  sql: SqlStorage,
  endpointIds: readonly string[],
  event: { eventId: string; type: EndpointEvent; payload: string },
  now: number,
): string[] {
  const made: string[] = [];
  for (const endpointId of endpointIds) {
    const inserted = sql
      .exec<{ id: string }>(
        `INSERT INTO deliveries (id, endpoint_id, event_id, type, status, created_at, next_attempt_at, payload)
         VALUES (?, ?, ?, ?, 'pending', ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
        `msg_${crypto.randomUUID().replaceAll("-", "")}`,
        endpointId,
        event.eventId,
        event.type,
        new Date(now).toISOString(),
        now,
        event.payload,
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

const CURSOR_PREFIX = "whd:";

export type DeliveryQuery = {
  endpointId?: string | undefined;
  status?: DeliveryStatus | undefined;
  type?: EndpointEvent | undefined;
  since?: string | undefined;
  limit: number;
  /** The page starts after this delivery (its seq), from the cursor; null for the first page. */
  before: number | null;
};

/** Where a page starts, from a cursor a page gave: decoded by the operation, since an ApiError thrown in the hub would reach the route as a plain Error. */
export function pageStart(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  const text = decodeCursor(cursor, 100);
  const match = text?.startsWith(CURSOR_PREFIX) ? /^\d{1,15}$/.exec(text.slice(CURSOR_PREFIX.length)) : null;
  if (!match) throw invalidCursor();
  return Number(match[0]);
}

/** A page of the log, newest first, with the filters asked. */
export function listDeliveries(
  sql: SqlStorage,
  query: DeliveryQuery,
): { deliveries: DeliveryView[]; nextCursor: string | null } {
  const { before } = query;
  const rows = sql
    .exec<DeliveryRow>(
      `${selectView()}
       WHERE (? IS NULL OR seq < ?) AND (? IS NULL OR endpoint_id = ?) AND (? IS NULL OR status = ?)
         AND (? IS NULL OR type = ?) AND (? IS NULL OR created_at >= ?)
       ORDER BY seq DESC LIMIT ?`,
      before,
      before,
      query.endpointId ?? null,
      query.endpointId ?? null,
      query.status ?? null,
      query.status ?? null,
      query.type ?? null,
      query.type ?? null,
      query.since ?? null,
      query.since ?? null,
      query.limit + 1,
    )
    .toArray();
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    deliveries: shown.map(viewOf),
    nextCursor: rows.length > query.limit && last ? encodeCursor(`${CURSOR_PREFIX}${last.seq}`) : null,
  };
}

export function readDelivery(sql: SqlStorage, id: string): DeliveryDetail | null {
  const row = sql.exec<DeliveryRow & { payload: string }>(`${selectView(", payload")} WHERE id = ?`, id).toArray()[0];
  return row ? { ...viewOf(row), payload: row.payload } : null;
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
