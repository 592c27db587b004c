import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { batchStub } from "../../src/batch/stub";
import entry from "../../src/index";
import type { ItemMessage } from "../../src/queue/item-message";
import { createKey, envWith, getStatus, person } from "../helpers";

// A batch created straight in its Durable Object, with no fan-out, so these tests
// alone decide which messages the consumer sees.
async function createBatch(items: Record<string, string>[]) {
  const { key, record } = await createKey();
  const id = crypto.randomUUID();
  const stub = batchStub(env, id);
  await stub.create({
    id,
    customerId: record.customerId,
    environment: "test",
    keyId: record.keyId,
    fields: ["email", "phone"],
    createdAt: new Date().toISOString(),
    statusUrl: `https://api.test/v2/test/person/contact-info/${id}`,
    items: items.map((input) => ({ input, externalId: null, error: null })),
  });
  const messages = items.map((input, index): ItemMessage => ({ batchId: id, index, environment: "test", fields: ["email", "phone"], input }));
  return { key, id, messages };
}

const worker = entry as ExportedHandler<Env, ItemMessage> & { queue: NonNullable<ExportedHandler<Env, ItemMessage>["queue"]> };

async function deliver(queue: string, messages: ItemMessage[], attempts = 1, workerEnv: Env = env) {
  const batch = createMessageBatch<ItemMessage>(
    queue,
    messages.map((body, i) => ({ id: `m${i}-${crypto.randomUUID()}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, workerEnv, ctx);
  return getQueueResult(batch, ctx);
}

describe("the item queue consumer", () => {
  it("acks every message whose item it recorded", async () => {
    const { key, id, messages } = await createBatch([person(), person({ firstName: "B" })]);
    const result = await deliver("contact-info-items", messages);
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 2, failedItems: 0 });
  });

  it("counts a redelivered message once", async () => {
    const { key, id, messages } = await createBatch([person(), person({ firstName: "B" }), person({ firstName: "C" })]);
    await deliver("contact-info-items", messages.slice(0, 2));
    await deliver("contact-info-items", messages.slice(0, 2));
    // The same message twice within one delivery, too.
    await deliver("contact-info-items", [messages[0]!, messages[0]!]);
    expect(await getStatus(key, id)).toMatchObject({ status: "processing", completedItems: 2, failedItems: 0 });
    await deliver("contact-info-items", messages);
    expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 3, failedItems: 0 });
  });

  it("retries a transiently failing item with a backoff delay and records the rest", async () => {
    const { key, id, messages } = await createBatch([person({ companyDomain: "fail.test" }), person()]);
    const result = await deliver("contact-info-items", messages);
    expect(result.retryMessages).toHaveLength(1);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await getStatus(key, id)).toMatchObject({ completedItems: 1, failedItems: 0 });
  });

  it("delays retries exponentially from the configured base", async () => {
    const { messages } = await createBatch([person({ companyDomain: "fail.test" })]);
    // The real bindings, with production-like delays in place of the test config's zeros.
    const slowRetries = envWith({ RETRY_BASE_DELAY_SECONDS: 10, RETRY_MAX_DELAY_SECONDS: 1000, ITEM_MAX_ATTEMPTS: 6 });
    const batch = createMessageBatch<ItemMessage>("contact-info-items", [{ id: "m", timestamp: new Date(), attempts: 3, body: messages[0]! }]);
    // getQueueResult does not report delays, so watch the call itself.
    const retry = vi.spyOn(batch.messages[0]!, "retry");
    await worker.queue(batch, slowRetries, createExecutionContext());
    const delay = retry.mock.calls[0]![0]!.delaySeconds!;
    // Attempt 3: 40 s before jitter; equal jitter keeps it within [20, 40].
    expect(delay).toBeGreaterThanOrEqual(20);
    expect(delay).toBeLessThanOrEqual(40);
  });
});

describe("the dead-letter queue consumer", () => {
  it("marks dead-lettered items failed with processing_failed, once", async () => {
    const { key, id, messages } = await createBatch([person({ companyDomain: "fail.test" }), person()]);
    await deliver("contact-info-items", messages.slice(1));
    const result = await deliver("contact-info-items-dlq", messages.slice(0, 1), 6);
    expect(result.explicitAcks).toHaveLength(1);
    await deliver("contact-info-items-dlq", messages.slice(0, 1), 6);
    const status = await getStatus(key, id);
    expect(status).toMatchObject({ status: "completed", completedItems: 1, failedItems: 1 });
    expect(status.items[0]!.error).toEqual({ code: "processing_failed", message: expect.any(String) });
  });

  it("never turns a completed item into a failed one", async () => {
    const { key, id, messages } = await createBatch([person()]);
    await deliver("contact-info-items", messages);
    await deliver("contact-info-items-dlq", messages, 6);
    expect(await getStatus(key, id)).toMatchObject({ completedItems: 1, failedItems: 0 });
  });
});
