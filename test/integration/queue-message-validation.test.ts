import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PersonInput } from "../../src/contact-info/person";
import entry from "../../src/index";
import { QUEUES } from "../../src/queue/names";
import type { ItemMessage } from "../../src/queue-messages/item-message";
import { createStoredBatch, deliver, getStatus, person } from "../helpers";
import { captureLogs } from "../log-capture";

/** One delivery of raw bodies, as the queue would hand over whatever a producer sent. */
async function deliverRaw(queue: string, bodies: unknown[]) {
  const batch = createMessageBatch<unknown>(
    queue,
    bodies.map((body, i) => ({ id: `raw${i}-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await entry.queue(batch, env);
  return { ids: batch.messages.map((message) => message.id), result: await getQueueResult(batch, ctx) };
}

afterEach(() => vi.restoreAllMocks());

describe("a queue message whose body no handler can read", () => {
  it.each(Object.values(QUEUES))("is acked on %s, never retried", async (queue) => {
    const { ids, result } = await deliverRaw(queue, [{ batchId: 42 }, "not an object", null]);
    expect([...result.explicitAcks].sort()).toEqual([...ids].sort());
    expect(result.retryMessages).toEqual([]);
    expect(result.retryBatch).toEqual({ retry: false });
  });

  it("is logged by its id only, never with its body", async () => {
    const logs = captureLogs();
    const secret = "ada.lovelace@analytical.example";
    const { ids } = await deliverRaw(QUEUES.items, [
      { batchId: "b", index: -1, environment: "test", fields: ["email"], input: { email: secret } },
    ]);
    expect(logs.events("queue_message_malformed")).toEqual([
      {
        event: "queue_message_malformed",
        queue: QUEUES.items,
        messageId: ids[0],
        attempt: 1,
        level: "log",
        raw: expect.any(String),
      },
    ]);
    expect(logs.lines().join("\n")).not.toContain(secret);
  });

  it("does not hold back the readable messages delivered with it", async () => {
    const { key, id, messages } = await createStoredBatch([person()]);
    const batch = createMessageBatch<unknown>(QUEUES.items, [
      { id: "good", timestamp: new Date(), attempts: 1, body: messages[0] },
      { id: "bad", timestamp: new Date(), attempts: 1, body: { ...messages[0], fields: ["fax"] } },
    ]);
    const ctx = createExecutionContext();
    await entry.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect([...result.explicitAcks].sort()).toEqual(["bad", "good"]);
    expect(result.retryMessages).toEqual([]);
    expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 1, failedItems: 0 });
  });
});

describe("an item message's body", () => {
  it("is read from its JSON text, as the fan-out sends it, or as an object, as an older deploy sent it", async () => {
    const { key, id, messages } = await createStoredBatch([
      person(),
      person({ firstName: "Grace", lastName: "Hopper" }),
    ]);
    const { result } = await deliverRaw(QUEUES.items, [JSON.stringify(messages[0]), messages[1]]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 2, failedItems: 0 });
  });

  it("is acked unread when its text is JSON no schema accepts", async () => {
    const { ids, result } = await deliverRaw(QUEUES.items, [JSON.stringify({ batchId: 42 }), "{not json"]);
    expect([...result.explicitAcks].sort()).toEqual([...ids].sort());
    expect(result.retryMessages).toEqual([]);
  });
});

/** The shape an older deploy sent: one item per message, with the submitted input instead of the normalized person and its key. */
function legacyMessages(messages: ItemMessage[], items: PersonInput[]) {
  return messages.map(({ batchId, environment, fields, items: [item] }) => ({
    batchId,
    index: item!.index,
    environment,
    fields,
    input: items[item!.index],
  }));
}

describe("an item message from a deploy before grouping (one item, with its person and key)", () => {
  it("is read as a group of one and processed like a current one", async () => {
    const { key, id, messages } = await createStoredBatch([
      person(),
      person({ firstName: "Grace", lastName: "Hopper" }),
    ]);
    const single = messages.map(({ items: [item], ...batch }) => ({ ...batch, ...item }));
    const { result } = await deliverRaw(
      QUEUES.items,
      single.map((body) => JSON.stringify(body)),
    );
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 2, failedItems: 0 });
  });
});

describe("an item message from an older deploy (the submitted input, not the normalized person)", () => {
  it("is normalized on arrival and processed like a current one", async () => {
    const items = [person(), person({ firstName: "  GRACE ", lastName: "Hopper" })];
    const { key, id, messages } = await createStoredBatch(items);
    const legacy = legacyMessages(messages, items);
    const { result } = await deliverRaw(QUEUES.items, legacy);
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    const status = await getStatus(key, id);
    expect(status).toMatchObject({ status: "completed", completedItems: 2, failedItems: 0 });
    // The same results as current messages for the same people: the sandbox answers by person key.
    const current = await createStoredBatch(items);
    await deliver(QUEUES.items, current.messages);
    const expected = await getStatus(current.key, current.id);
    // Found at different moments: all but their verifiedAt.
    const timeless = (items: typeof status.items) =>
      items.map(({ emails, phones }) => ({
        emails: emails.map(({ verifiedAt: _, ...email }) => email),
        phones: phones.map(({ verifiedAt: _, ...phone }) => phone),
      }));
    expect(timeless(status.items)).toEqual(timeless(expected.items));
  });

  it("is marked failed by the dead-letter consumer like a current one", async () => {
    const items = [person()];
    const { key, id, messages } = await createStoredBatch(items);
    const legacy = legacyMessages(messages, items);
    const { result } = await deliverRaw(QUEUES.itemsDeadLetter, legacy);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 0, failedItems: 1 });
  });
});
