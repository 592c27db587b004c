import { createExecutionContext, createMessageBatch } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { ItemMessage } from "../../src/queue-messages/item-message";
import {
  createStoredBatch as createBatch,
  createKey,
  deliver,
  envWith,
  faultyItemQueue,
  getStatus,
  person,
  sentMessage,
  submitBatch,
  until,
  worker,
} from "../helpers";
import { logsOf } from "../log-capture";

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

  it("ends an item that keeps failing (fail.test) at ITEM_MAX_ATTEMPTS itself, never through the dead-letter queue", async () => {
    const { key, id, messages } = await createBatch([person({ companyDomain: "fail.test" }), person()]);
    // The production limit, 6: the fifth attempt is retried, the sixth ends the item.
    const sixAttempts = envWith({ ITEM_MAX_ATTEMPTS: 6 });
    const fifth = await deliver("contact-info-items", messages, 5, sixAttempts);
    expect(fifth.retryMessages).toHaveLength(1);
    const sixth = await deliver("contact-info-items", messages.slice(0, 1), 6, sixAttempts);
    expect(sixth.retryMessages).toEqual([]);
    expect(sixth.explicitAcks).toHaveLength(1);
    const status = await getStatus(key, id);
    expect(status).toMatchObject({ status: "completed", completedItems: 1, failedItems: 1 });
    expect(status.items[0]).toMatchObject({ status: "failed", error: { code: "processing_failed" }, sources: [] });
  });

  it("delays retries exponentially from the configured base", async () => {
    const { messages } = await createBatch([person({ companyDomain: "fail.test" })]);
    // The real bindings, with production-like delays in place of the test config's zeros.
    const slowRetries = envWith({ RETRY_BASE_DELAY_SECONDS: 10, RETRY_MAX_DELAY_SECONDS: 1000, ITEM_MAX_ATTEMPTS: 6 });
    const batch = createMessageBatch<ItemMessage>("contact-info-items", [
      { id: "m", timestamp: new Date(), attempts: 3, body: messages[0]! },
    ]);
    // getQueueResult does not report delays, so watch the call itself.
    const retry = vi.spyOn(batch.messages[0]!, "retry");
    await worker.queue(batch, slowRetries, createExecutionContext());
    const delay = retry.mock.calls[0]![0]!.delaySeconds!;
    // Attempt 3: 40 s before jitter; equal jitter keeps it within [20, 40].
    expect(delay).toBeGreaterThanOrEqual(20);
    expect(delay).toBeLessThanOrEqual(40);
  });
});

/** One message carrying the items of `messages` (one batch's), as the fan-out groups them. */
const grouped = (messages: ItemMessage[]): ItemMessage => ({
  ...messages[0]!,
  items: messages.flatMap(({ items }) => items),
});

describe("a message of several items", () => {
  it("is acked once every item in it is recorded", async () => {
    const { key, id, messages } = await createBatch([person(), person({ firstName: "B" }), person({ firstName: "C" })]);
    const result = await deliver("contact-info-items", [grouped(messages)]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 3, failedItems: 0 });
  });

  it("records the items that succeeded and is retried for the one that failed; the retry processes only that one", async () => {
    const { key, id, messages } = await createBatch([
      person(),
      person({ companyDomain: "fail.test" }),
      person({ firstName: "C" }),
    ]);
    const message = grouped(messages);
    const first = await deliver("contact-info-items", [message]);
    expect(first.explicitAcks).toHaveLength(0);
    expect(first.retryMessages).toHaveLength(1);
    expect(await getStatus(key, id)).toMatchObject({ status: "processing", completedItems: 2, failedItems: 0 });

    const logs = await logsOf(() => deliver("contact-info-items", [message], 2));
    expect(logs.events("items_dropped")).toEqual([expect.objectContaining({ batchId: id, items: 2 })]);
    expect(logs.events("item_attempt_failed")).toEqual([
      expect.objectContaining({ batchId: id, index: 1, attempt: 2 }),
    ]);
    expect(await getStatus(key, id)).toMatchObject({ completedItems: 2, failedItems: 0 });
  });

  it("logs the sandbox's deliberate fault (fail.test) as one warning per attempt, without a stack, and nothing at level error", async () => {
    const { messages } = await createBatch([person({ companyDomain: "fail.test" }), person()]);
    const message = grouped(messages);
    for (const attempt of [1, 2, 3]) {
      const logs = await logsOf(() => deliver("contact-info-items", [message], attempt));
      const failures = logs.events("item_attempt_failed");
      expect(failures).toEqual([
        expect.objectContaining({ level: "warn", error: "DeliberateFault", index: 0, attempt }),
      ]);
      expect(failures[0]!.raw).not.toMatch(/\n\s*at |"stack"/);
      expect(logs.lines("error")).toEqual([]);
    }
  });

  it("waits, when one item's source asked for time (Retry-After), at least that long before its retry", async () => {
    const { key } = await createKey({ environment: "live" });
    // Its messages are kept from the queue, to be delivered here.
    const queue = faultyItemQueue(async () => {});
    const batchId = await submitBatch(
      key,
      {
        // The vendors rate-limit the first person (Hunter: Retry-After 1 s; PDL: reset in 2 s); Hunter finds the second.
        items: [
          { fullName: "Rita Limit", companyDomain: "vendors-ratelimit.example" },
          { fullName: "Fred Found", companyDomain: "found.example" },
        ],
        fields: ["email"],
      },
      "live",
    );
    const [message] = await until(
      async () =>
        queue.mock.calls.flatMap(([requests]) => [...requests].map(sentMessage)).filter((m) => m.batchId === batchId),
      { what: "the batch's message sent", done: (sent) => sent.length > 0 },
    );
    queue.mockRestore();
    expect(message!.items.map(({ index }) => index)).toEqual([0, 1]);

    const batch = createMessageBatch<ItemMessage>("contact-info-items", [
      { id: "m", timestamp: new Date(), attempts: 1, body: message! },
    ]);
    const retry = vi.spyOn(batch.messages[0]!, "retry");
    await worker.queue(batch, envWith({}), createExecutionContext());
    // The tests' backoff is zero, so the delay is the longest wait the vendors asked for.
    expect(retry).toHaveBeenCalledTimes(1);
    expect(retry.mock.calls[0]![0]!.delaySeconds).toBeGreaterThanOrEqual(1);
    expect(await getStatus(key, batchId)).toMatchObject({ status: "processing", completedItems: 1 });

    // On its last attempt the item settles with what was found, and the batch completes.
    await deliver("contact-info-items", [message!], 3);
    expect(await getStatus(key, batchId)).toMatchObject({ status: "completed", completedItems: 2 });
  });

  it("is acked unprocessed when none of its items is pending", async () => {
    const { key, id, messages } = await createBatch([person(), person({ firstName: "B" })]);
    await deliver("contact-info-items", messages);
    const again = await deliver("contact-info-items", [grouped(messages)]);
    expect(again.explicitAcks).toHaveLength(1);
    expect(again.retryMessages).toEqual([]);
    expect(await getStatus(key, id)).toMatchObject({ completedItems: 2, failedItems: 0 });
  });

  it("has all its pending items marked failed when dead-lettered", async () => {
    const { key, id, messages } = await createBatch([person(), person({ firstName: "B" }), person({ firstName: "C" })]);
    await deliver("contact-info-items", messages.slice(0, 1));
    const result = await deliver("contact-info-items-dlq", [grouped(messages)], 6);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 1, failedItems: 2 });
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
