import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../src/base/config";
import type { ContactInfoBatch } from "../../src/batch/contact-info-batch";
import { MAX_ITEM_ENQUEUES, MAX_WEBHOOK_ENQUEUES } from "../../src/batch/next-step";
import { batchStub } from "../../src/batch/stub";
import {
  createKey,
  expectProblem,
  faultyItemQueue,
  getStatus,
  newBatch,
  person,
  request,
  setClockAhead,
  submitBatch,
  until,
  untilAtRest,
  waitForCompletion,
} from "../helpers";

const { batchDeadlineSeconds, redriveAfterSeconds, retentionSeconds } = readConfig(env);

const enqueues = (stub: DurableObjectStub<ContactInfoBatch>) =>
  runInDurableObject(stub, (_, state) =>
    state.storage.sql
      .exec<{ enqueues: number }>("SELECT enqueues FROM items ORDER BY idx")
      .toArray()
      .map((item) => item.enqueues),
  );
const webhookRow = (stub: DurableObjectStub<ContactInfoBatch>) =>
  runInDurableObject(stub, (_, state) =>
    state.storage.sql
      .exec<{ webhook_state: string; webhook_enqueues: number; webhook_attempts: number }>(
        "SELECT webhook_state, webhook_enqueues, webhook_attempts FROM batch",
      )
      .one(),
  );

/** A batch fanned out into messages that vanish: the case re-drive and the deadline exist for. */
async function lostBatch(size: number) {
  const { key, record } = await createKey();
  const batch = newBatch(record.customerId, size);
  const stub = batchStub(env, batch.id);
  const queue = faultyItemQueue(async () => {});
  await stub.create(batch);
  await untilAtRest(stub);
  queue.mockRestore();
  return { key, batch, stub };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the batch deadline", () => {
  it("fails the items still pending BATCH_DEADLINE_SECONDS after creation, so the batch always completes", async () => {
    const { key, batch, stub } = await lostBatch(3);
    expect((await getStatus(key, batch.id)).status).toBe("pending");

    setClockAhead(batchDeadlineSeconds * 1000 + 1000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    vi.useRealTimers();
    const status = await getStatus(key, batch.id);
    expect(status).toMatchObject({ status: "completed", completedItems: 0, failedItems: 3 });
    expect(status.items.map((item) => item.error?.code)).toEqual([
      "processing_timeout",
      "processing_timeout",
      "processing_timeout",
    ]);
  });
});

describe("retention", () => {
  it("deletes a completed batch's items RETENTION_SECONDS after completion, then answers 410 to its owner only", async () => {
    const { key } = await createKey();
    const other = await createKey();
    const batchId = await submitBatch(key, { items: [person({ firstName: "Retained" }), { bad: true }] });
    await waitForCompletion(key, batchId);
    const stub = batchStub(env, batchId);
    // Its last reports done (an alarm of its own, which may still run after the completion is read).
    await untilAtRest(stub);
    // Before retention ends the alarm only sleeps again.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await getStatus(key, batchId)).totalItems).toBe(2);

    setClockAhead(retentionSeconds * 1000 + 1000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    vi.useRealTimers();
    const gone = await request(`/v2/test/person/contact-info/${batchId}`, { key });
    const body = await expectProblem(gone, 410, "batch_expired");
    expect(Date.parse(String(body.expiredAt))).toBeGreaterThan(Date.now() + (retentionSeconds - 60) * 1000);
    const items = await runInDurableObject(stub, (_, state) =>
      state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM items").one(),
    );
    expect(items.n).toBe(0);
    await expectProblem(await request(`/v2/test/person/contact-info/${batchId}`, { key: other.key }), 404, "not_found");
  });
});

describe("re-drive of items", () => {
  it("re-enqueues an item still pending REDRIVE_AFTER_SECONDS after its message was lost, and it completes", async () => {
    const { key, batch, stub } = await lostBatch(3);
    expect(await enqueues(stub)).toEqual([1, 1, 1]);

    // Not yet due: the alarm only sleeps again.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await enqueues(stub)).toEqual([1, 1, 1]);

    setClockAhead((redriveAfterSeconds + 1) * 1000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    vi.useRealTimers();
    expect(await enqueues(stub)).toEqual([2, 2, 2]);
    expect(await waitForCompletion(key, batch.id)).toMatchObject({ completedItems: 3, failedItems: 0 });
  });

  it("fails an item whose messages keep getting lost once it was enqueued MAX_ITEM_ENQUEUES times", async () => {
    const { key, batch, stub } = await lostBatch(2);
    faultyItemQueue(async () => {});
    for (let run = 1; run < MAX_ITEM_ENQUEUES; run++) {
      setClockAhead(run * (redriveAfterSeconds + 1) * 1000);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      expect(await enqueues(stub)).toEqual([run + 1, run + 1]);
    }
    setClockAhead(MAX_ITEM_ENQUEUES * (redriveAfterSeconds + 1) * 1000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    vi.useRealTimers();
    const status = await getStatus(key, batch.id);
    expect(status).toMatchObject({ status: "completed", completedItems: 0, failedItems: 2 });
    expect(status.items.map((item) => item.error?.code)).toEqual(["processing_failed", "processing_failed"]);
    expect(await enqueues(stub)).toEqual([MAX_ITEM_ENQUEUES, MAX_ITEM_ENQUEUES]);
  });
});

describe("re-drive of the webhook", () => {
  const completeAtBirth = async () => {
    const { key, record } = await createKey();
    const batch = {
      ...newBatch(record.customerId, 0),
      items: [{ input: {}, externalId: null, error: { code: "invalid_input" as const, message: "invalid" } }],
      leaders: [null],
      webhook: { url: `https://hooks.test/ok/${crypto.randomUUID()}`, secret: record.webhookSecret! },
    };
    return { key, batch, stub: batchStub(env, batch.id) };
  };

  it("re-sends a webhook stuck `queued` with no attempt past REDRIVE_AFTER_SECONDS, and it is delivered", async () => {
    const { key, batch, stub } = await completeAtBirth();
    const send = vi.spyOn(env.WEBHOOK_QUEUE, "send").mockResolvedValue(undefined as unknown as QueueSendResponse);
    await stub.create(batch);
    await until(() => webhookRow(stub), { what: "the webhook queued", done: (row) => row.webhook_state === "queued" });
    // Its alarm goes on to publish batch.completed to the customer's endpoints: the clock moves once it is done.
    await untilAtRest(stub);
    expect(send).toHaveBeenCalledTimes(1);
    send.mockRestore();

    setClockAhead((redriveAfterSeconds + 1) * 1000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    vi.useRealTimers();
    const row = await until(() => webhookRow(stub), {
      what: "the webhook settled",
      done: (row) => row.webhook_state !== "queued",
    });
    expect(row).toEqual({ webhook_state: "delivered", webhook_enqueues: 2, webhook_attempts: 1 });
    expect((await getStatus(key, batch.id)).webhook).toMatchObject({ state: "delivered", attempts: 1 });
  });

  it("fails a webhook whose messages keep getting lost once it was enqueued MAX_WEBHOOK_ENQUEUES times", async () => {
    const { batch, stub } = await completeAtBirth();
    vi.spyOn(env.WEBHOOK_QUEUE, "send").mockResolvedValue(undefined as unknown as QueueSendResponse);
    await stub.create(batch);
    await until(() => webhookRow(stub), { what: "the webhook queued", done: (row) => row.webhook_state === "queued" });
    // Its alarm goes on to publish batch.completed to the customer's endpoints: the clock moves once it is done.
    await untilAtRest(stub);
    for (let run = 1; run <= MAX_WEBHOOK_ENQUEUES; run++) {
      setClockAhead(run * (redriveAfterSeconds + 1) * 1000);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    }
    expect(await webhookRow(stub)).toEqual({
      webhook_state: "failed",
      webhook_enqueues: MAX_WEBHOOK_ENQUEUES,
      webhook_attempts: 0,
    });
  });
});
