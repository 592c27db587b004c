import { type SummaryColumns, summaryOf } from "../contact-info/batch-views";
import { batchListPaging, type ListPage } from "./list-query";
import type { BatchReport } from "./report";
import type { BatchList } from "./views";

// The account's list of its batches (docs/storage.md, batches): a row per batch, written by its reports.

/** The highest outbox seq of the batch already applied (0 for a batch not yet reported). */
export const appliedSeq = (sql: SqlStorage, batchId: string): number =>
  sql.exec<{ reported_seq: number }>("SELECT reported_seq FROM batches WHERE id = ?", batchId).toArray()[0]
    ?.reported_seq ?? 0;

/**
 * Writes the batch's row as the report says; counters only grow and dates once set stay, so reports applied
 * in any order agree.
 */
export function upsertBatch(sql: SqlStorage, batch: BatchReport["batch"], reportedSeq: number): void {
  sql.exec(
    `INSERT INTO batches (id, total_items, completed_items, failed_items, created_at, completed_at, deleted_at, reported_seq,
                          credits_charged, max_credits, people_complete, credits_refunded)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET
       people_complete = max(people_complete, excluded.people_complete),
       completed_items = max(completed_items, excluded.completed_items),
       failed_items = max(failed_items, excluded.failed_items),
       credits_charged = max(credits_charged, excluded.credits_charged),
       credits_refunded = max(credits_refunded, excluded.credits_refunded),
       completed_at = coalesce(completed_at, excluded.completed_at),
       deleted_at = coalesce(deleted_at, excluded.deleted_at),
       reported_seq = max(reported_seq, excluded.reported_seq)`,
    batch.id,
    batch.totalItems,
    batch.completedItems,
    batch.failedItems,
    batch.createdAt,
    batch.completedAt,
    batch.deletedAt,
    reportedSeq,
    batch.creditsCharged,
    batch.maxCredits,
    batch.peopleComplete ? 1 : 0,
    batch.creditsRefunded,
  );
}

/** One page of the batches not deleted, newest first. */
export function listBatches(sql: SqlStorage, page: ListPage): BatchList {
  const { shown, nextCursor } = batchListPaging.rows<SummaryColumns>(
    sql,
    {
      columns: `id, total_items, completed_items, failed_items, created_at, completed_at, credits_charged,
                credits_refunded, max_credits`,
      from: "batches",
      id: "id",
      where: "deleted_at IS NULL",
    },
    page,
  );
  return { batches: shown.map(summaryOf), nextCursor };
}
