import * as z from "zod";
import { ENDPOINT_EVENTS, ENDPOINT_STATUSES, type EndpointEvent, PREVIOUS_SECRET_MS } from "./endpoint-events";
import { generateWebhookSecret } from "./signature";
import type { EndpointPatch, EndpointView } from "./views";

// SQL of the hub's endpoints table (docs/storage.md, "WebhookHub"): what the hub runs on its own storage.

type EndpointRow = {
  id: string;
  url: string;
  description: string | null;
  events: string;
  status: string;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  failing_since: number | null;
  created_at: string;
};

// Rows written by this code, read back: checked all the same, as anything an older deploy wrote.
const storedEvents = z.array(z.enum(ENDPOINT_EVENTS));
const storedStatus = z.enum(ENDPOINT_STATUSES);

function viewOf(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: storedEvents.parse(JSON.parse(row.events)),
    status: storedStatus.parse(row.status),
    disabledReason: row.disabled_reason,
    createdAt: row.created_at,
  };
}

const COLUMNS =
  "id, url, description, events, status, disabled_reason, secret, previous_secret, previous_secret_until, failing_since, created_at";

function readRow(sql: SqlStorage, id: string): EndpointRow | undefined {
  return sql.exec<EndpointRow>(`SELECT ${COLUMNS} FROM endpoints WHERE id = ?`, id).toArray()[0];
}

export const countEndpoints = (sql: SqlStorage): number =>
  sql.exec<{ n: number }>("SELECT count(*) AS n FROM endpoints").one().n;

export function insertEndpoint(
  sql: SqlStorage,
  input: { url: string; events: EndpointEvent[]; description?: string | undefined },
): EndpointView & { secret: string } {
  const endpoint: EndpointView = {
    id: `ep_${crypto.randomUUID().replaceAll("-", "")}`,
    url: input.url,
    description: input.description ?? null,
    events: input.events,
    status: "enabled",
    disabledReason: null,
    createdAt: new Date().toISOString(),
  };
  const secret = generateWebhookSecret();
  sql.exec(
    "INSERT INTO endpoints (id, url, description, events, status, secret, created_at) VALUES (?, ?, ?, ?, 'enabled', ?, ?)",
    endpoint.id,
    endpoint.url,
    endpoint.description,
    JSON.stringify(endpoint.events),
    secret,
    endpoint.createdAt,
  );
  return { ...endpoint, secret };
}

export function listEndpoints(sql: SqlStorage): EndpointView[] {
  return sql.exec<EndpointRow>(`SELECT ${COLUMNS} FROM endpoints ORDER BY created_at, id`).toArray().map(viewOf);
}

export function readEndpoint(sql: SqlStorage, id: string): EndpointView | null {
  const row = readRow(sql, id);
  return row ? viewOf(row) : null;
}

/** Applies a PATCH; enabling clears the reason and the failing streak, disabling stops the endpoint's pending deliveries. */
export function updateEndpoint(sql: SqlStorage, id: string, patch: EndpointPatch): EndpointView | null {
  if (!readRow(sql, id)) return null;
  if (patch.url !== undefined) sql.exec("UPDATE endpoints SET url = ? WHERE id = ?", patch.url, id);
  if (patch.events !== undefined)
    sql.exec("UPDATE endpoints SET events = ? WHERE id = ?", JSON.stringify(patch.events), id);
  if (patch.description !== undefined)
    sql.exec("UPDATE endpoints SET description = ? WHERE id = ?", patch.description, id);
  if (patch.status === "enabled")
    sql.exec("UPDATE endpoints SET status = 'enabled', disabled_reason = NULL, failing_since = NULL WHERE id = ?", id);
  if (patch.status === "disabled") disableEndpoint(sql, id, null);
  return readEndpoint(sql, id);
}

/** Disables the endpoint (with the reason shown, when automatic): its pending deliveries end failed, for a recover later. */
export function disableEndpoint(sql: SqlStorage, id: string, reason: string | null): void {
  sql.exec("UPDATE endpoints SET status = 'disabled', disabled_reason = ? WHERE id = ?", reason, id);
  sql.exec(
    "UPDATE deliveries SET status = 'failed', next_attempt_at = NULL WHERE endpoint_id = ? AND status = 'pending'",
    id,
  );
}

/** Deletes the endpoint and its log: nothing is sent to it any more. */
export function deleteEndpoint(sql: SqlStorage, id: string): boolean {
  if (!readRow(sql, id)) return false;
  sql.exec("DELETE FROM attempts WHERE delivery_seq IN (SELECT seq FROM deliveries WHERE endpoint_id = ?)", id);
  sql.exec("DELETE FROM deliveries WHERE endpoint_id = ?", id);
  sql.exec("DELETE FROM endpoints WHERE id = ?", id);
  return true;
}

/** A new secret; the one it replaces keeps signing beside it for PREVIOUS_SECRET_MS. */
export function rotateSecret(sql: SqlStorage, id: string, now: number): string | null {
  if (!readRow(sql, id)) return null;
  const secret = generateWebhookSecret();
  sql.exec(
    "UPDATE endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ? WHERE id = ?",
    now + PREVIOUS_SECRET_MS,
    secret,
    id,
  );
  return secret;
}

/** Where a delivery to endpoint `id` goes now and what signs it (the newest secret first); null once it is deleted. */
export function endpointTarget(
  sql: SqlStorage,
  id: string,
  now: number,
): { url: string; secrets: string[]; failingSince: number | null } | null {
  const row = readRow(sql, id);
  if (!row) return null;
  const previous = row.previous_secret !== null && (row.previous_secret_until ?? 0) > now ? [row.previous_secret] : [];
  return { url: row.url, secrets: [row.secret, ...previous], failingSince: row.failing_since };
}

/** The endpoint's failing streak after an attempt: reset by a success, started by the first failure. */
export function noteOutcome(sql: SqlStorage, id: string, ok: boolean, now: number): void {
  if (ok) sql.exec("UPDATE endpoints SET failing_since = NULL WHERE id = ?", id);
  else sql.exec("UPDATE endpoints SET failing_since = coalesce(failing_since, ?) WHERE id = ?", now, id);
}

/** The enabled endpoints subscribed to `type`. */
export function subscribers(sql: SqlStorage, type: EndpointEvent): string[] {
  return sql
    .exec<{ id: string }>(
      "SELECT id FROM endpoints WHERE status = 'enabled' AND EXISTS (SELECT 1 FROM json_each(events) WHERE value = ?)",
      type,
    )
    .toArray()
    .map(({ id }) => id);
}
