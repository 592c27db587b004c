import type { Environment } from "../environment";
import type { NewBatch } from "./contract";
import type { StepFacts } from "./next-step";
import { type BatchSummary, summaryOf, type WebhookView } from "./views";

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
  outbox_seq: number;
};

// The oldest pending enqueue is a min() over the partial index items_by_enqueue: named, since
// left to itself the planner walks every pending item of items_by_status (EXPLAIN QUERY PLAN),
// which made each read of the row cost O(pending items).
export const BATCH_ROW = `SELECT *,
    (SELECT min(enqueued_at) FROM items INDEXED BY items_by_enqueue WHERE status = 'pending' AND leader_idx IS NULL) AS oldest_pending_enqueue,
    (SELECT count(*) FROM outbox) AS unreported,
    EXISTS (SELECT 1 FROM cache_purge) AS cache_purge_left
  FROM batch`;

export function readBatchRow(sql: SqlStorage): BatchRow | undefined {
  return sql.exec<BatchRow>(BATCH_ROW).toArray()[0];
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
>;

const STATUS_ROW = `SELECT id, customer_id, environment, total_items, completed_items, failed_items, created_at, completed_at,
    deleted_at, expired_at, webhook_url, webhook_state, webhook_attempts, webhook_last_status
  FROM batch`;

/** The row for a status read: one row, no look at the items or the outbox. */
export function readStatusRow(sql: SqlStorage): StatusRow | undefined {
  return sql.exec<StatusRow>(STATUS_ROW).toArray()[0];
}

export function insertBatchRow(sql: SqlStorage, batch: NewBatch, failed: number, completedAt: string | null): void {
  sql.exec(
    `INSERT INTO batch (id, customer_id, environment, key_id, fields, total_items, failed_items, created_at, completed_at,
                        status_url, webhook_url, webhook_secret, webhook_state)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    batch.id,
    batch.customerId,
    batch.environment,
    batch.keyId,
    JSON.stringify(batch.fields),
    batch.items.length,
    failed,
    batch.createdAt,
    completedAt,
    batch.statusUrl,
    batch.webhook?.url ?? null,
    batch.webhook?.secret ?? null,
    batch.webhook ? "pending" : null,
  );
}

/**
 * Adds finished items to the counters, and completes the batch when none is left.
 * Answers the batch's completedAt: `finishedAt` when these items completed it, else null.
 */
export function addFinished(sql: SqlStorage, row: BatchRow, completed: number, failed: number, finishedAt: string): string | null {
  if (completed + failed === 0) return null;
  const completedAt = row.completed_items + row.failed_items + completed + failed >= row.total_items ? finishedAt : null;
  sql.exec(
    "UPDATE batch SET completed_items = completed_items + ?, failed_items = failed_items + ?, completed_at = ?",
    completed,
    failed,
    completedAt,
  );
  return completedAt;
}

export const summary = (row: StatusRow): BatchSummary => summaryOf(row);

/** The summary of a batch just inserted (insertBatchRow), without reading it back. */
export const newBatchSummary = (batch: NewBatch, failed: number, completedAt: string | null): BatchSummary =>
  summaryOf({
    id: batch.id,
    total_items: batch.items.length,
    completed_items: 0,
    failed_items: failed,
    created_at: batch.createdAt,
    completed_at: completedAt,
  });

export function webhookView(row: StatusRow): WebhookView | null {
  if (!row.webhook_url || !row.webhook_state) return null;
  return { url: row.webhook_url, state: row.webhook_state, attempts: row.webhook_attempts, lastStatus: row.webhook_last_status };
}
