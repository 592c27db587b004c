import { jurisdictionOfBatch } from "../base/batch-id";
import { log, logError } from "../base/log";
import { batchStub } from "../batch/stub";
import type { ItemMessage, MessageItem, PersonItem } from "../queue-messages/item-message";

/** A message, with those of its items still to be processed, each with its person. */
export type PendingMessage = { message: Message<ItemMessage>; items: PersonItem[] };

/**
 * The messages of one batch with their items still pending. The other items
 * (already finished, or their batch deleted or unknown) are left out, and a
 * message with none left is acked now, unprocessed: so a deleted batch's items
 * are never enriched, and a redelivered message (say, retried for one of its
 * items) costs no provider call for the others. If the check fails every item
 * goes on: recording is idempotent, and record() refuses a deleted batch.
 *
 * A batch kept in a jurisdiction sends indexes only (item-message.ts): the same
 * call answers its pending items with their people, and if it fails the messages
 * are retried, as nothing can be enriched without them.
 */
export async function pendingOnly(
  env: Env,
  batchId: string,
  messages: readonly Message<ItemMessage>[],
): Promise<PendingMessage[]> {
  const indexes = messages.flatMap(({ body }) => body.items.map(({ index }) => index));
  const resident = jurisdictionOfBatch(batchId) !== undefined;
  let pending: Map<number, MessageItem>;
  try {
    pending = new Map((await batchStub(env, batchId).stillPending(indexes)).map((item) => [item.index, item]));
  } catch (error) {
    logError("pending_check_failed", error, { batchId, items: indexes.length });
    if (!resident) return messages.map((message) => ({ message, items: message.body.items.filter(hasPerson) }));
    for (const message of messages) message.retry();
    return [];
  }
  const kept: PendingMessage[] = [];
  let dropped = 0;
  for (const message of messages) {
    const items = message.body.items.flatMap((item) => {
      if (!pending.has(item.index)) return [];
      // The batch's answer carries the person when the message does not (a batch kept in a jurisdiction).
      const answer = pending.get(item.index);
      const withPerson = answer && hasPerson(answer) ? answer : item;
      return hasPerson(withPerson) ? [withPerson] : [];
    });
    dropped += message.body.items.length - items.length;
    if (items.length > 0) kept.push({ message, items });
    else message.ack();
  }
  if (dropped > 0) log("items_dropped", { batchId, items: dropped });
  return kept;
}

const hasPerson = (item: ItemMessage["items"][number]): item is PersonItem => "person" in item;

/**
 * Whether a group's items must be checked still pending (`stillPending`, one call to the batch)
 * before they are enriched. A first delivery of a `test` batch outside a jurisdiction goes
 * without: its items are almost always pending, the sandbox sends no one anywhere, and record()
 * answers the items that were not (a deleted batch's: all), which are then dropped unrecorded.
 * The check stays where messages carry no people (a jurisdiction's: the answer brings them), in
 * `live` (an item of a deleted batch, or an erased person's, must never reach a vendor, and a
 * finished item is not paid for twice), and for a message redelivered or sent again (likely
 * partly recorded already).
 */
export function pendingCheckNeeded(batchId: string, messages: readonly Message<ItemMessage>[]): boolean {
  if (jurisdictionOfBatch(batchId) !== undefined) return true;
  return messages.some(
    ({ body, attempts }) => body.environment !== "test" || attempts > 1 || body.attemptsBefore !== undefined,
  );
}
