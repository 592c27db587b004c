// The item queue from a test's side: the Worker's consumer handed messages directly, the
// messages the fan-out would send, what a spied queue sent, and faults injected into sends.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { DEFAULT_MAX_AGE_DAYS } from "../src/batch/submission";
import { normalizePerson, type PersonInput, personKey } from "../src/contact-info/person";
import entry from "../src/index";
import type { ItemMessage } from "../src/queue-messages/item-message";
import { keyedHashes } from "./keyed-hash";

export const worker = entry as ExportedHandler<Env, ItemMessage> & {
  queue: NonNullable<ExportedHandler<Env, ItemMessage>["queue"]>;
};

/** Hands `messages` to the Worker's queue handler as one delivery from `queue`. */
export async function deliver(queue: string, messages: ItemMessage[], attempts = 1, workerEnv: Env = env) {
  const batch = createMessageBatch<ItemMessage>(
    queue,
    messages.map((body, i) => ({ id: `m${i}-${crypto.randomUUID()}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, workerEnv, ctx);
  return getQueueResult(batch, ctx);
}

/**
 * A message of one item of customer `customerId`'s test batch, as the fan-out would send it (tests deliver
 * items one by one, or in any grouping).
 */
export function itemMessage(batchId: string, index: number, input: PersonInput, customerId: string): ItemMessage {
  const person = normalizePerson(input);
  return {
    batchId,
    customerId,
    environment: "test",
    fields: ["email", "phone"],
    maxAgeDays: DEFAULT_MAX_AGE_DAYS,
    items: [{ index, person, personKey: personKey(person), hashes: keyedHashes(customerId, "test", person) }],
  };
}

/** The item message a sendBatch request carries: sent as its JSON text (item-message.ts). */
export function sentMessage(request: MessageSendRequest): ItemMessage {
  if (request.contentType !== "text" || typeof request.body !== "string")
    throw new Error("item messages are sent as JSON text");
  return JSON.parse(request.body) as ItemMessage;
}

/** The items the sendBatch calls of a spied queue sent, with their batch id, in order. */
export const sentItems = (calls: readonly (readonly [Iterable<MessageSendRequest>, ...unknown[]])[]) =>
  calls.flatMap(([requests]) =>
    [...requests].flatMap((request) => {
      const { batchId, environment, fields, items } = sentMessage(request);
      return items.map((item) => ({ batchId, environment, fields, ...item }));
    }),
  );

/**
 * Fault injection around the real item queue binding, shared by every object in
 * this isolate: `vi.restoreAllMocks()` (or the spy's mockRestore) puts it back.
 */
export function faultyItemQueue(
  sendBatch: (real: Queue["sendBatch"], messages: Iterable<MessageSendRequest>) => Promise<unknown>,
) {
  const real = env.ITEM_QUEUE.sendBatch.bind(env.ITEM_QUEUE);
  return vi
    .spyOn(env.ITEM_QUEUE, "sendBatch")
    .mockImplementation(async (messages) => (await sendBatch(real, messages)) as QueueSendBatchResponse);
}
