import type { Environment } from "../base/environment";
import type { BatchOwner } from "../base/tenant";
import type { NewBatch } from "../contact-info/batch-contract";
import { type BatchSummary, summaryOf, type WebhookView } from "../contact-info/batch-views";
import { DEFAULT_WEBHOOK_EVENTS, type WebhookEventType } from "../contact-info/webhook-events";
import type { StepFacts } from "./next-step";

/** The batch table's one row (docs/storage.md), with the item fact the alarm's plan needs. */
export type BatchRow = StepFacts & {
  id: string;
  customer_id: string;
  environment: Environment;
  key_id: string;
  fields: string;
  completed_items: number;
  failed_items: number;
  enqueue_failures: number;
  webhook_url: string | null;
  webhook_secret: string | null;
  status_url: string;
  webhook_last_status: number | null;
  webhook_refused: string | null;
  outbox_seq: number;
  credits_charged: number;
  credits_refunded: number;
  max_credits: number | null;
  /** The submit's maxAgeDays (every create writes it; the column allows NULL only because ALTER TABLE added it). */
  max_age_days: number;
  /** 1 when the batch subscribed to item.completed. */
  item_webhooks: number;
};

// The oldest due time is a min() over the partial index items_by_due: named, since left to
// itself the planner walks every pending item of items_by_status (EXPLAIN QUERY PLAN), which
// made each read of the row cost O(pending items). Items in flight are counted only while the
// fan-out goes on (CASE evaluates the count only then): a range of items_by_status below
// next_enqueue_index, about a window's worth. Pending followers count too, so a batch full of
// duplicates sends a little less at a time; they finish with their leaders, sent before them.
export const BATCH_ROW = `SELECT *,
    (SELECT min(due_at) FROM items INDEXED BY items_by_due WHERE status = 'pending' AND leader_idx IS NULL AND due_at IS NOT NULL) AS oldest_pending_due,
    CASE WHEN next_enqueue_index < total_items
      THEN (SELECT count(*) FROM items WHERE status = 'pending' AND idx < batch.next_enqueue_index) ELSE 0 END AS in_flight,
    (SELECT count(*) FROM outbox) + (people_indexed < total_items AND completed_at NOTNULL AND deleted_at IS NULL AND expired_at IS NULL) AS unreported,
    EXISTS (SELECT 1 FROM cache_purge) AS cache_purge_left,
    EXISTS (SELECT 1 FROM item_deliveries WHERE state = 'pending') AS item_webhooks_unsent,
    (SELECT min(max(queued_at, coalesce(attempted_at, ''))) FROM item_deliveries WHERE state = 'queued') AS item_webhooks_idle_since,
    EXISTS (SELECT 1 FROM endpoint_item_events) AS item_events_unpublished
  FROM batch`;

export function readBatchRow(sql: SqlStorage): BatchRow | undefined {
  return sql.exec<BatchRow>(BATCH_ROW).toArray()[0];
}

/** The row, for code that runs only once the batch exists. */
export function requireBatchRow(sql: SqlStorage): BatchRow {
  const row = readBatchRow(sql);
  if (!row) throw new Error("the batch has no row: it was never created");
  return row;
}

/** What a status read shows of the row: the counters, owner, dates and webhook, without the alarm's facts. */
export type StatusRow = Pick<
  BatchRow,
  | "id"
  | "customer_id"
  | "environment"
  | "total_items"
  | "completed_items"
  | "failed_items"
  | "created_at"
  | "completed_at"
  | "deleted_at"
  | "expired_at"
  | "webhook_url"
  | "webhook_state"
  | "webhook_attempts"
  | "webhook_last_status"
  | "webhook_refused"
  | "credits_charged"
  | "credits_refunded"
  | "max_credits"
>;

const STATUS_ROW = `SELECT id, customer_id, environment, total_items, completed_items, failed_items, created_at, completed_at,
    deleted_at, expired_at, webhook_url, webhook_state, webhook_attempts, webhook_last_status, webhook_refused, credits_charged,
    credits_refunded, max_credits
  FROM batch`;

/** The row for a status read: one row, no look at the items or the outbox. */
export function readStatusRow(sql: SqlStorage): StatusRow | undefined {
  return sql.exec<StatusRow>(STATUS_ROW).toArray()[0];
}

export function insertBatchRow(
  sql: SqlStorage,
  batch: NewBatch,
  total: number,
  failed: number,
  completedAt: string | null,
): void {
  sql.exec(
    `INSERT INTO batch (id, customer_id, environment, key_id, fields, total_items, failed_items, created_at, completed_at,
                        status_url, webhook_url, webhook_secret, webhook_state, max_credits, item_webhooks, max_age_days,
                        events_published)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
    batch.id,
    batch.customerId,
    batch.environment,
    batch.keyId,
    JSON.stringify(batch.fields),
    total,
    failed,
    batch.createdAt,
    completedAt,
    batch.statusUrl,
    batch.webhook?.url ?? null,
    batch.webhook?.secret ?? null,
    subscribes(batch, "batch.completed") ? "pending" : null,
    batch.maxCredits ?? null,
    subscribes(batch, "item.completed") ? 1 : 0,
    batch.maxAgeDays,
  );
}

/** Whether the batch's webhook is sent `event`: a batch without webhookEvents gets the default. */
const subscribes = (batch: Pick<NewBatch, "webhook">, event: WebhookEventType): boolean =>
  batch.webhook !== undefined && (batch.webhook.events ?? DEFAULT_WEBHOOK_EVENTS).includes(event);

/**
 * Adds finished items and their charge to the counters, and completes the batch when none is left.
 * Answers the batch's completedAt: `finishedAt` when these items completed it, else null.
 */
export function addFinished(
  sql: SqlStorage,
  row: BatchRow,
  { completed, failed, credits }: { completed: number; failed: number; credits: number },
  finishedAt: string,
): string | null {
  if (completed + failed === 0) return null;
  const completedAt =
    row.completed_items + row.failed_items + completed + failed >= row.total_items ? finishedAt : null;
  sql.exec(
    "UPDATE batch SET completed_items = completed_items + ?, failed_items = failed_items + ?, credits_charged = credits_charged + ?, completed_at = ?",
    completed,
    failed,
    credits,
    completedAt,
  );
  return completedAt;
}

export const summary = (row: StatusRow): BatchSummary => summaryOf(row);

/** The summary of a batch just inserted (insertBatchRow), without reading it back. */
export const newBatchSummary = (
  batch: NewBatch,
  total: number,
  failed: number,
  completedAt: string | null,
): BatchSummary =>
  summaryOf({
    id: batch.id,
    total_items: total,
    completed_items: 0,
    failed_items: failed,
    created_at: batch.createdAt,
    completed_at: completedAt,
    credits_charged: 0,
    credits_refunded: 0,
    max_credits: batch.maxCredits ?? null,
  });

export function webhookView(row: StatusRow): WebhookView | null {
  if (!row.webhook_url || !row.webhook_state) return null;
  return {
    url: row.webhook_url,
    state: row.webhook_state,
    attempts: row.webhook_attempts,
    lastStatus: row.webhook_last_status,
    refused: row.webhook_refused,
  };
}

/** Whether the batch belongs to `owner`: to anyone else it does not exist. */
export const ownedBy = (row: Pick<StatusRow, "customer_id" | "environment">, owner: BatchOwner): boolean =>
  row.customer_id === owner.customerId && row.environment === owner.environment;
