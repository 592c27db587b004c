import type { ItemMessage, MessageItem } from "../batch/item-message";
import { batchStub } from "../batch/stub";
import { log, logError } from "../log";

/** A message, with those of its items still to be processed. */
export type PendingMessage = { message: Message<ItemMessage>; items: MessageItem[] };

/**
 * The messages of one batch with their items still pending. The other items
 * (already finished, or their batch deleted or unknown) are left out, and a
 * message with none left is acked now, unprocessed: so a deleted batch's items
 * are never enriched, and a redelivered message (say, retried for one of its
 * items) costs no provider call for the others. If the check fails every item
 * goes on: recording is idempotent, and record() refuses a deleted batch.
 */
export async function pendingOnly(env: Env, batchId: string, messages: readonly Message<ItemMessage>[]): Promise<PendingMessage[]> {
  const indexes = messages.flatMap(({ body }) => body.items.map(({ index }) => index));
  let pending: Set<number>;
  try {
    pending = new Set(await batchStub(env, batchId).stillPending(indexes));
  } catch (error) {
    logError("pending_check_failed", error, { batchId, items: indexes.length });
    return messages.map((message) => ({ message, items: message.body.items }));
  }
  const kept: PendingMessage[] = [];
  let dropped = 0;
  for (const message of messages) {
    const items = message.body.items.filter(({ index }) => pending.has(index));
    dropped += message.body.items.length - items.length;
    if (items.length > 0) kept.push({ message, items });
    else message.ack();
  }
  if (dropped > 0) log("items_dropped", { batchId, items: dropped });
  return kept;
}
