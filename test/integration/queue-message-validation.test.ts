import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import entry from "../../src/index";
import { QUEUES } from "../../src/queue/names";
import { createStoredBatch, getStatus, person } from "../helpers";
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
  it("is read from its JSON text, as the fan-out sends it, or as an object (the webhook queue's way, same consumer)", async () => {
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

describe("an item message in a shape the fan-out never sent", () => {
  it("is acked unread, its items left to the batch's re-drive: one item at the top level, or the input unnormalized", async () => {
    const items = [person(), person({ firstName: "Grace", lastName: "Hopper" })];
    const { key, id, messages } = await createStoredBatch(items);
    const {
      items: [first],
      ...batch
    } = messages[0]!;
    const ungrouped = { ...batch, ...first };
    const unnormalized = { ...batch, items: [{ index: 1, input: items[1] }] };
    const { ids, result } = await deliverRaw(QUEUES.items, [ungrouped, unnormalized]);
    expect([...result.explicitAcks].sort()).toEqual([...ids].sort());
    expect(await getStatus(key, id)).toMatchObject({ status: "pending", completedItems: 0, failedItems: 0 });
  });
});
