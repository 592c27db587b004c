import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ContactInfoBatch } from "../../src/batch/contact-info-batch";
import { MAX_ITEM_ENQUEUES, MAX_WEBHOOK_ENQUEUES } from "../../src/batch/redrive";
import { MAX_FIELD_LENGTH } from "../../src/contact-info/person";
import type { NewBatch } from "../../src/batch/status";
import { batchStub } from "../../src/batch/stub";
import { createKey, expectProblem, getStatus, person, request, submitBatch, waitForCompletion } from "../helpers";

const newBatch = (customerId: string, size: number): NewBatch => ({
  id: crypto.randomUUID(),
  customerId,
  environment: "test",
  keyId: "key_test",
  fields: ["email", "phone"],
  createdAt: new Date().toISOString(),
  statusUrl: "https://api.test/status",
  items: Array.from({ length: size }, (_, i) => ({ input: person({ firstName: `P${i}` }), externalId: null, error: null })),
});

type Progress = { next_enqueue_index: number; enqueue_failures: number };
const progress = (stub: DurableObjectStub<ContactInfoBatch>) =>
  runInDurableObject(stub, (_, state) => state.storage.sql.exec<Progress>("SELECT next_enqueue_index, enqueue_failures FROM batch").one());

type Enqueues = { idx: number; enqueues: number; status: string };
const enqueues = (stub: DurableObjectStub<ContactInfoBatch>) =>
  runInDurableObject(stub, (_, state) => state.storage.sql.exec<Enqueues>("SELECT idx, enqueues, status FROM items ORDER BY idx").toArray());
type WebhookRow = { webhook_state: string; webhook_enqueues: number; webhook_attempts: number };
const webhookRow = (stub: DurableObjectStub<ContactInfoBatch>) =>
  runInDurableObject(stub, (_, state) =>
    state.storage.sql.exec<WebhookRow>("SELECT webhook_state, webhook_enqueues, webhook_attempts FROM batch").one(),
  );

// The vitest config's REDRIVE_AFTER_SECONDS is 60: moving the clock (only Date, so
// polling still runs on real timers) past it makes a lost message due for a re-drive.
function moveClockPastRedrive(times = 1) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + times * 61_000);
}

// Fault injection around the real queue binding, shared by every object in this
// isolate: each test restores it before it ends.
function faultyQueue(sendBatch: (real: Queue["sendBatch"], messages: Iterable<MessageSendRequest>) => Promise<unknown>) {
  const real = env.ITEM_QUEUE.sendBatch.bind(env.ITEM_QUEUE);
  return vi
    .spyOn(env.ITEM_QUEUE, "sendBatch")
    .mockImplementation(async (messages) => (await sendBatch(real, messages)) as QueueSendBatchResponse);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the batch Durable Object", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("resumes the fan-out where a failed send left it, losing no item", async () => {
    const { key, record } = await createKey();
    const batch = newBatch(record.customerId, 250);
    const stub = batchStub(env, batch.id);
    let sends = 0;
    const queue = faultyQueue(async (real, messages) => {
      if (++sends > 1) throw new Error("queue unavailable");
      await real(messages);
    });
    await stub.create(batch);
    const stalled = await until(() => progress(stub), (p) => p.enqueue_failures > 0);
    expect(stalled.next_enqueue_index).toBe(100);

    queue.mockRestore();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await progress(stub)).next_enqueue_index).toBe(250);
    const status = await waitForCompletion(key, batch.id);
    expect(status).toMatchObject({ completedItems: 250, failedItems: 0 });
  });

  it("fails the items still pending at the batch deadline, so the batch always completes", async () => {
    const { key, record } = await createKey();
    const batch = newBatch(record.customerId, 3);
    const stub = batchStub(env, batch.id);
    // Messages that vanish: the case the deadline exists for.
    const queue = faultyQueue(async () => {});
    await stub.create(batch);
    await until(() => progress(stub), (p) => p.next_enqueue_index === 3);
    queue.mockRestore();
    expect((await getStatus(key, batch.id)).status).toBe("pending");

    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec("UPDATE batch SET created_at = ?", new Date(Date.now() - 2 * 86_400_000).toISOString());
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const status = await getStatus(key, batch.id);
    expect(status).toMatchObject({ status: "completed", completedItems: 0, failedItems: 3 });
    expect(status.items.map((item) => item.error?.code)).toEqual(["processing_timeout", "processing_timeout", "processing_timeout"]);
  });

  it("keeps exact counters when evicted in the middle of a batch", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: Array.from({ length: 300 }, (_, i) => person({ firstName: `E${i}` })) });
    const stub = batchStub(env, batchId);
    await evictDurableObject(stub);
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ totalItems: 300, completedItems: 300, failedItems: 0 });
    await evictDurableObject(stub);
    expect(await getStatus(key, batchId)).toMatchObject({ completedItems: 300, failedItems: 0 });
  });

  it("deletes a completed batch's items when retention ends, then answers 410 to its owner only", async () => {
    const { key, record } = await createKey();
    const other = await createKey();
    const batchId = await submitBatch(key, { items: [person({ firstName: "Retained" }), { bad: true }] });
    await waitForCompletion(key, batchId);
    const stub = batchStub(env, batchId);
    // Retention ends 30 days after completion; the alarm is already set for it.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await getStatus(key, batchId)).totalItems).toBe(2);
    await runInDurableObject(stub, async (_, state) => {
      state.storage.sql.exec("UPDATE batch SET completed_at = ?", new Date(Date.now() - 31 * 86_400_000).toISOString());
      // Far enough ahead not to fire by itself before the test runs it.
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const gone = await request(`/v2/test/person/contact-info/${batchId}`, { key });
    const body = await expectProblem(gone, 410, "batch_expired");
    expect(body.expiredAt).toEqual(expect.any(String));
    const items = await runInDurableObject(stub, (_, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM items").one());
    expect(items.n).toBe(0);
    await expectProblem(await request(`/v2/test/person/contact-info/${batchId}`, { key: other.key }), 404, "not_found");
    expect(record.customerId).not.toBe(other.record.customerId);
  });

  it("leaves no storage behind for an id that was never a batch", async () => {
    const stub = batchStub(env, crypto.randomUUID());
    expect(await stub.status({ customerId: "cus_x", environment: "test" }, { fromIndex: 0, limit: 10 })).toEqual({ kind: "none" });
    const tables = await runInDurableObject(stub, (_, state) => state.storage.sql.exec("SELECT name FROM sqlite_master").toArray());
    expect(tables).toEqual([]);
  });

  it.each([
    ["CJK characters (3 UTF-8 bytes each)", "字"],
    ["emoji (4 UTF-8 bytes each)", "😀"],
  ])("enqueues and completes 100 items with 5 fields of %s at the maximum length", async (_, unit) => {
    const { key } = await createKey();
    // A distinct tail per item, so de-duplication leaves 100 items to enqueue.
    const field = (i: number) => unit.repeat((MAX_FIELD_LENGTH - 4) / unit.length) + String(i).padStart(4, "0");
    const items = Array.from({ length: 100 }, (_, i) => ({
      externalId: field(i),
      firstName: field(i),
      lastName: field(i),
      fullName: field(i),
      companyName: field(i),
    }));
    const batchId = await submitBatch(key, { items });
    const status = await waitForCompletion(key, batchId, 30_000);
    expect(status).toMatchObject({ totalItems: 100, completedItems: 100, failedItems: 0 });
    expect((await progress(batchStub(env, batchId))).enqueue_failures).toBe(0);
  });
});

describe("re-drive", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("re-enqueues an item still pending REDRIVE_AFTER_SECONDS after its message was lost, and it completes", async () => {
    const { key, record } = await createKey();
    const batch = newBatch(record.customerId, 3);
    const stub = batchStub(env, batch.id);
    const queue = faultyQueue(async () => {});
    await stub.create(batch);
    await until(() => progress(stub), (p) => p.next_enqueue_index === 3);
    queue.mockRestore();
    expect((await enqueues(stub)).map((item) => item.enqueues)).toEqual([1, 1, 1]);

    // Not yet due: the alarm only sleeps again.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await enqueues(stub)).map((item) => item.enqueues)).toEqual([1, 1, 1]);

    moveClockPastRedrive();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    vi.useRealTimers();
    expect((await enqueues(stub)).map((item) => item.enqueues)).toEqual([2, 2, 2]);
    expect(await waitForCompletion(key, batch.id)).toMatchObject({ completedItems: 3, failedItems: 0 });
  });

  it("fails an item whose messages keep getting lost once it was enqueued MAX_ITEM_ENQUEUES times", async () => {
    const { key, record } = await createKey();
    const batch = newBatch(record.customerId, 2);
    const stub = batchStub(env, batch.id);
    faultyQueue(async () => {});
    await stub.create(batch);
    await until(() => progress(stub), (p) => p.next_enqueue_index === 2);

    for (let run = 1; run < MAX_ITEM_ENQUEUES; run++) {
      moveClockPastRedrive(run);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      expect((await enqueues(stub)).map((item) => item.enqueues)).toEqual([run + 1, run + 1]);
    }
    moveClockPastRedrive(MAX_ITEM_ENQUEUES);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    vi.useRealTimers();
    const status = await getStatus(key, batch.id);
    expect(status).toMatchObject({ status: "completed", completedItems: 0, failedItems: 2 });
    expect(status.items.map((item) => item.error?.code)).toEqual(["processing_failed", "processing_failed"]);
    expect((await enqueues(stub)).map((item) => item.enqueues)).toEqual([MAX_ITEM_ENQUEUES, MAX_ITEM_ENQUEUES]);
  });

  const completeAtBirth = async (path: string) => {
    const { key, record } = await createKey();
    const batch = {
      ...newBatch(record.customerId, 0),
      items: [{ input: {}, externalId: null, error: { code: "invalid_input" as const, message: "invalid" } }],
      webhook: { url: `https://hooks.test/${path}/${crypto.randomUUID()}`, secret: record.webhookSecret! },
    };
    return { key, batch, stub: batchStub(env, batch.id) };
  };

  it("re-sends a webhook stuck `queued` with no attempt past REDRIVE_AFTER_SECONDS, and it is delivered", async () => {
    const { key, batch, stub } = await completeAtBirth("ok");
    const send = vi.spyOn(env.WEBHOOK_QUEUE, "send").mockResolvedValue(undefined as unknown as QueueSendResponse);
    await stub.create(batch);
    await until(() => webhookRow(stub), (row) => row.webhook_state === "queued");
    expect(send).toHaveBeenCalledTimes(1);
    send.mockRestore();

    moveClockPastRedrive();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    vi.useRealTimers();
    const row = await until(() => webhookRow(stub), (row) => row.webhook_state !== "queued");
    expect(row).toEqual({ webhook_state: "delivered", webhook_enqueues: 2, webhook_attempts: 1 });
    expect((await getStatus(key, batch.id)).webhook).toMatchObject({ state: "delivered", attempts: 1 });
  });

  it("fails a webhook whose messages keep getting lost once it was enqueued MAX_WEBHOOK_ENQUEUES times", async () => {
    const { batch, stub } = await completeAtBirth("ok");
    vi.spyOn(env.WEBHOOK_QUEUE, "send").mockResolvedValue(undefined as unknown as QueueSendResponse);
    await stub.create(batch);
    await until(() => webhookRow(stub), (row) => row.webhook_state === "queued");
    for (let run = 1; run <= MAX_WEBHOOK_ENQUEUES; run++) {
      moveClockPastRedrive(run);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    }
    expect(await webhookRow(stub)).toEqual({ webhook_state: "failed", webhook_enqueues: MAX_WEBHOOK_ENQUEUES, webhook_attempts: 0 });
  });
});
