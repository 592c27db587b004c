import * as z from "zod";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/paging";
import {
  ATTEMPT_ERRORS,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  ENDPOINT_EVENTS,
  type EndpointEvent,
} from "./endpoint-events";
import type { DeliveryDetail, DeliveryView } from "./views";

// Reading the hub's delivery log (docs/storage.md, "WebhookHub"): pages of deliveries with their attempts.

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
