import { batchStub } from "../batch/stub";
import { log, logError } from "../log";

/**
 * The messages of one batch whose items are still pending. The others (already
 * finished, or their batch deleted or unknown) are acked now, unprocessed, so a
 * deleted batch's items are never enriched and a redelivered message costs no
 * provider call. If the check fails every message goes on: recording is
 * idempotent, and record() refuses a deleted batch.
 */
export async function pendingOnly<M extends Message<{ index: number }>>(env: Env, batchId: string, group: readonly M[]): Promise<M[]> {
  let pending: Set<number>;
  try {
    pending = new Set(await batchStub(env, batchId).stillPending(group.map(({ body }) => body.index)));
  } catch (error) {
    logError("pending_check_failed", error, { batchId, items: group.length });
    return [...group];
  }
  const dropped = group.filter(({ body }) => !pending.has(body.index));
  for (const message of dropped) message.ack();
  if (dropped.length > 0) log("items_dropped", { batchId, items: dropped.length });
  return group.filter(({ body }) => pending.has(body.index));
}
