import type { Config } from "../base/config";
import type { ItemMessage, PersonItem } from "../queue-messages/item-message";
import type { GroupPlan } from "./group-plan";
import { resendHeld } from "./held-resend";
import type { PendingMessage } from "./pending-only";
import { retryLater } from "./retry";

// The queue's plumbing around the item consumer's stages (consumer.ts): grouping messages by batch,
// and acking, retrying or resending each once its fate is known. No rule about items lives here.

export type ItemQueueMessage = Message<ItemMessage>;

export function groupByBatch(messages: readonly ItemQueueMessage[]): Map<string, ItemQueueMessage[]> {
  const groups = new Map<string, ItemQueueMessage[]>();
  for (const message of messages) {
    const group = groups.get(message.body.batchId);
    if (group) group.push(message);
    else groups.set(message.body.batchId, [message]);
  }
  return groups;
}

/** The messages as pendingOnly answers them, each with the items that carry their person. */
export const withPeople = (group: readonly ItemQueueMessage[]): PendingMessage[] =>
  group.map((message) => ({
    message,
    items: message.body.items.filter((item): item is PersonItem => "person" in item),
  }));

type RetryDelays = Pick<Config, "retryBaseDelaySeconds" | "retryMaxDelaySeconds">;

/** Every message of the group back to the queue (a stage failed): `retryAfterOf` keeps a source's wait. */
export function retryEvery(
  pending: readonly PendingMessage[],
  delays: RetryDelays,
  retryAfterOf: (message: ItemQueueMessage) => number | undefined = () => undefined,
): void {
  for (const { message } of pending) retryLater(message, delays, retryAfterOf(message));
}

/**
 * Carries out the plan's action for each message: a message whose items are all `done` (recorded, or no
 * longer pending) is acked whatever the plan said; one held back only by our rate governor is sent again
 * without counting the attempt (retried as any other if that send fails).
 */
export async function settleMessages(
  env: Env,
  pending: readonly PendingMessage[],
  actions: GroupPlan<ItemQueueMessage>["actions"],
  done: ReadonlySet<number>,
): Promise<void> {
  await Promise.all(
    pending.map(async ({ message }) => {
      const allDone = message.body.items.every(({ index }) => done.has(index));
      const action = allDone ? undefined : actions.get(message);
      if (action === undefined || action.kind === "ack") message.ack();
      else if (action.held && (await resendHeld(env, message, action.delaySeconds))) message.ack();
      else message.retry({ delaySeconds: action.delaySeconds });
    }),
  );
}
