// A batch seen as a task of the tasks extension (io.modelcontextprotocol/tasks, with the 2026-07-28
// revision): the task id is the batch id, so the task is as durable as the batch, and reading it is
// reading the batch, which only its customer can (another's id is a missing task, as a missing batch is).
import type { BatchSummary } from "../contact-info/batch-views";
import { ProtocolAnswer } from "./protocol-answer";

/** How often a client should poll tasks/get: items take seconds, a batch of thousands minutes. */
export const TASK_POLL_MS = 2_000;

type BatchState = Pick<
  BatchSummary,
  "status" | "totalItems" | "completedItems" | "failedItems" | "creditsCharged" | "createdAt" | "completedAt"
>;

/** The counts a task carries, and its completed result's structured content. */
const countsOf = (batchId: string, batch: BatchState) => ({
  batchId,
  status: batch.status,
  totalItems: batch.totalItems,
  completedItems: batch.completedItems,
  failedItems: batch.failedItems,
  creditsCharged: batch.creditsCharged,
});

const progressOf = (batch: BatchState) =>
  `${batch.completedItems + batch.failedItems} of ${batch.totalItems} item(s) finished; ${batch.creditsCharged} credit(s) charged.`;

/** The task fields every state shares; ttlMs null: the task lasts as long as its batch is retained. */
const taskFields = (batchId: string, batch: BatchState) => ({
  taskId: batchId,
  createdAt: batch.createdAt,
  lastUpdatedAt: batch.completedAt ?? new Date().toISOString(),
  ttlMs: null,
  pollIntervalMs: TASK_POLL_MS,
});

/** The batch as tasks/get answers it: working until every item finished, then completed with its counts. */
export function detailedTask(batchId: string, batch: BatchState) {
  const counts = countsOf(batchId, batch);
  if (batch.status !== "completed") {
    return { ...taskFields(batchId, batch), status: "working" as const, statusMessage: progressOf(batch) };
  }
  const message = `Done: batch ${batchId}, ${progressOf(batch)} Read the items with get_contact_info_batch.`;
  return {
    ...taskFields(batchId, batch),
    status: "completed" as const,
    statusMessage: message,
    result: { content: [{ type: "text", text: JSON.stringify(counts) }], structuredContent: counts },
  };
}

/** A batch cancelled (tasks/cancel, or DELETE on REST) at `at`: its task ended cancelled (erased, it keeps no creation time). */
export const cancelledTask = (batchId: string, at: string) => ({
  taskId: batchId,
  status: "cancelled" as const,
  statusMessage: "The batch was cancelled and erased: its items and results are gone.",
  createdAt: at,
  lastUpdatedAt: at,
  ttlMs: null,
  pollIntervalMs: TASK_POLL_MS,
});

/** start_contact_info_batch's answer to a client with the tasks extension: the task just made, durable already. */
export function taskOfBatch(batch: BatchState, batchId: string): ProtocolAnswer {
  const { result: _, ...task } = { result: undefined, ...detailedTask(batchId, batch) };
  return new ProtocolAnswer({ resultType: "task", ...task });
}
