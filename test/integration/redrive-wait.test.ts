import { createExecutionContext, createMessageBatch, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../src/base/config";
import type { ContactInfoBatch } from "../../src/batch/contact-info-batch";
import { batchStub } from "../../src/batch/stub";
import type { ItemMessage } from "../../src/queue-messages/item-message";
import {
  createKey,
  deliver,
  faultyItemQueue,
  getStatus,
  sentMessage,
  setClockAhead,
  submitBatch,
  until,
  worker,
} from "../helpers";

const { redriveAfterSeconds } = readConfig(env);
// What the fake vendors ask for on a `-busy.example` person's first look-up (test/fakes/upstreams.ts).
const RETRY_AFTER_SECONDS = 600;

const itemRow = (stub: DurableObjectStub<ContactInfoBatch>) =>
  runInDurableObject(stub, (_, state) =>
    state.storage.sql
      .exec<{ status: string; enqueues: number; due_at: string }>("SELECT status, enqueues, due_at FROM items")
      .one(),
  );

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("an item waiting out a source's Retry-After", () => {
  it("is not re-driven while it waits, however long past REDRIVE_AFTER_SECONDS, and completes with what its retry finds", async () => {
    expect(RETRY_AFTER_SECONDS).toBeGreaterThan(redriveAfterSeconds * 5);
    const { key } = await createKey({ environment: "live" });
    const queue = faultyItemQueue(async () => {});
    const batchId = await submitBatch(
      key,
      { items: [{ fullName: "Wanda Wait", companyDomain: "vendors-busy.example" }], fields: ["email"] },
      "live",
    );
    const [message] = await until(
      async () =>
        queue.mock.calls.flatMap(([requests]) => [...requests].map(sentMessage)).filter((m) => m.batchId === batchId),
      { what: "the item's message", done: (messages) => messages.length === 1 },
    );
    const stub = batchStub(env, batchId);

    // Both vendors ask for ten minutes: the message waits that long, and the batch learns when the item is due.
    const before = Date.now();
    const delivery = createMessageBatch<ItemMessage>("contact-info-items", [
      { id: "m", timestamp: new Date(), attempts: 1, body: message! },
    ]);
    const retry = vi.spyOn(delivery.messages[0]!, "retry");
    await worker.queue(delivery, env, createExecutionContext());
    expect(retry.mock.calls).toEqual([[{ delaySeconds: RETRY_AFTER_SECONDS }]]);
    const waiting = await itemRow(stub);
    expect(waiting.status).toBe("pending");
    expect(Date.parse(waiting.due_at)).toBeGreaterThanOrEqual(before + RETRY_AFTER_SECONDS * 1000);

    // Well past REDRIVE_AFTER_SECONDS from its send, but before it is due: the alarm resends nothing.
    queue.mockClear();
    setClockAhead((RETRY_AFTER_SECONDS - 1) * 1000);
    await runDurableObjectAlarm(stub);
    expect(queue).not.toHaveBeenCalled();
    expect(await itemRow(stub)).toMatchObject({ status: "pending", enqueues: 1 });

    // The retry comes when it was due, and finds the email.
    await deliver("contact-info-items", [message!], 2);
    vi.useRealTimers();
    const [item] = (await getStatus(key, batchId)).items;
    expect(item).toMatchObject({ status: "completed", outcome: "found" });
    expect(item!.emails[0]).toMatchObject({ address: "wanda.wait@vendors-busy.example" });
  });

  it("is re-driven once REDRIVE_AFTER_SECONDS past its due time, if its message was lost after all", async () => {
    const { key } = await createKey({ environment: "live" });
    const queue = faultyItemQueue(async () => {});
    const batchId = await submitBatch(
      key,
      { items: [{ fullName: "Lars Lost", companyDomain: "vendors-busy.example" }], fields: ["email"] },
      "live",
    );
    const [message] = await until(
      async () =>
        queue.mock.calls.flatMap(([requests]) => [...requests].map(sentMessage)).filter((m) => m.batchId === batchId),
      { what: "the item's message", done: (messages) => messages.length === 1 },
    );
    await deliver("contact-info-items", [message!]);
    queue.mockClear();

    setClockAhead((RETRY_AFTER_SECONDS + redriveAfterSeconds + 5) * 1000);
    await runDurableObjectAlarm(batchStub(env, batchId));
    expect(
      queue.mock.calls
        .flatMap(([requests]) => [...requests].map(sentMessage))
        .flatMap((m) => m.items.map(({ index }) => index)),
    ).toEqual([0]);
    expect(await itemRow(batchStub(env, batchId))).toMatchObject({ status: "pending", enqueues: 2 });

    // The resent message is processed like any other.
    await deliver("contact-info-items", [message!], 1);
    vi.useRealTimers();
    expect(await getStatus(key, batchId)).toMatchObject({ status: "completed", completedItems: 1 });
  });
});

describe("what an item found before a source asked for time", () => {
  it("is kept until the item ends: a deadline that finds it still waiting completes it with what was found", async () => {
    const { key } = await createKey({ environment: "live" });
    const queue = faultyItemQueue(async () => {});
    const batchId = await submitBatch(
      key,
      { items: [{ fullName: "Kim Kept", companyDomain: "vendors-phonebusy.example" }] },
      "live",
    );
    const [message] = await until(
      async () =>
        queue.mock.calls.flatMap(([requests]) => [...requests].map(sentMessage)).filter((m) => m.batchId === batchId),
      { what: "the item's message", done: (messages) => messages.length === 1 },
    );
    // Hunter finds the email; PDL and Apollo, asked for the phone, want ten minutes: the item waits, its email kept.
    await deliver("contact-info-items", [message!]);
    expect(await itemRow(batchStub(env, batchId))).toMatchObject({ status: "pending" });

    // Its message is lost for good and the batch deadline comes: the item completes with the email, not failed.
    setClockAhead((readConfig(env).batchDeadlineSeconds + 1) * 1000);
    await runDurableObjectAlarm(batchStub(env, batchId));
    vi.useRealTimers();
    const [item] = (await getStatus(key, batchId)).items;
    expect(item).toMatchObject({ status: "completed", outcome: "found", error: null, phones: [] });
    expect(item!.emails.map(({ address }) => address)).toEqual(["kim.kept@vendors-phonebusy.example"]);
  });
});
