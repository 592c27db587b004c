import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ContactInfoBatch } from "../../src/batch/contact-info-batch";
import { batchStub } from "../../src/batch/stub";
import type { ItemOutcome } from "../../src/contact-info/batch-contract";
import { leaderIndexes } from "../../src/contact-info/leaders";
import {
  createKey,
  faultyItemQueue,
  getStatus,
  newBatch,
  person,
  sentItems,
  submitBatch,
  until,
  untilAtRest,
  waitForCompletion,
} from "../helpers";
import { validItem } from "../keyed-hash";

/** Each item's enqueue facts, in index order. */
const enqueued = (stub: DurableObjectStub<ContactInfoBatch>) =>
  runInDurableObject(stub, (_, state) =>
    state.storage.sql
      .exec<{ enqueued_at: string | null; enqueues: number }>("SELECT enqueued_at, enqueues FROM items ORDER BY idx")
      .toArray(),
  );

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a new batch's items on the queue", () => {
  it("are sent by create itself and stored as enqueued once, at creation; merged duplicates and invalid items not at all", async () => {
    const { key, record } = await createKey();
    const queue = faultyItemQueue((real, messages) => real(messages));
    const batch = newBatch(record.customerId, 3);
    batch.items = [
      batch.items[0]!,
      batch.items[0]!,
      {
        input: { firstName: "Solo" },
        externalId: null,
        error: { code: "invalid_input", message: "not enough to identify a person" },
      },
    ];
    batch.leaders = leaderIndexes(batch.items);
    const stub = batchStub(env, batch.id);
    await stub.create(batch);
    await untilAtRest(stub);

    expect(queue).toHaveBeenCalledTimes(1);
    expect(sentItems(queue.mock.calls).map(({ index }) => index)).toEqual([0]);
    expect(await enqueued(stub)).toEqual([
      { enqueued_at: batch.createdAt, enqueues: 1 },
      { enqueued_at: null, enqueues: 0 },
      { enqueued_at: null, enqueues: 0 },
    ]);
    expect(await waitForCompletion(key, batch.id)).toMatchObject({ completedItems: 2, failedItems: 1 });
  });

  it("whose first sends failed are sent by the alarm, which records when", async () => {
    const { key, record } = await createKey();
    const batch = newBatch(record.customerId, 2);
    const stub = batchStub(env, batch.id);
    const queue = faultyItemQueue(async () => {
      throw new Error("queue unavailable");
    });
    await stub.create(batch);
    await until(
      () =>
        runInDurableObject(stub, (_, state) =>
          state.storage.sql.exec<{ n: number }>("SELECT enqueue_failures AS n FROM batch").one(),
        ),
      {
        what: "the alarm's send failed too",
        done: ({ n }) => n > 0,
      },
    );
    queue.mockRestore();
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const items = await enqueued(stub);
    expect(items.map(({ enqueues }) => enqueues)).toEqual([1, 1]);
    expect(items.every(({ enqueued_at }) => enqueued_at !== null && enqueued_at > batch.createdAt)).toBe(true);
    expect(await waitForCompletion(key, batch.id)).toMatchObject({ completedItems: 2, failedItems: 0 });
  });
});

describe("recording results", () => {
  it("gives merged duplicates their leader's result, each counted once", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, {
      items: [person(), person({ firstName: " ADA " }), person({ firstName: "Grace" }), person()],
    });
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ status: "completed", completedItems: 4, failedItems: 0 });
    const [ada, ...rest] = status.items;
    expect(ada!.emails.length).toBeGreaterThan(0);
    for (const follower of [rest[0]!, rest[2]!]) {
      expect(follower).toMatchObject({
        status: "completed",
        outcome: ada!.outcome,
        emails: ada!.emails,
        phones: ada!.phones,
        sources: ada!.sources,
      });
    }
    expect(rest[1]!.emails).not.toEqual(ada!.emails);
  });

  it("records the first of two outcomes for one item in one call, and nothing for an item already finished", async () => {
    const { key, record } = await createKey();
    const batch = newBatch(record.customerId, 2);
    const stub = batchStub(env, batch.id);
    faultyItemQueue(async () => {});
    await stub.create(batch);
    await untilAtRest(stub);

    const failed: ItemOutcome = {
      index: 0,
      status: "failed",
      error: { code: "processing_failed", message: "no" },
      sources: [],
    };
    const found: ItemOutcome = { index: 0, status: "completed", outcome: "found", emails: [], phones: [], sources: [] };
    expect(await stub.record([found, failed])).toEqual({ recorded: 1, notPending: [] });
    // Item 0 is finished already: the answer says so, and the consumer drops its message (consumer.ts).
    expect(await stub.record([failed, { ...failed, index: 1 }])).toEqual({ recorded: 1, notPending: [0] });
    const status = await getStatus(key, batch.id);
    expect(status).toMatchObject({ status: "completed", completedItems: 1, failedItems: 1 });
    expect(status.items.map((item) => item.status)).toEqual(["completed", "failed"]);
  });

  it("stores inputs and outcomes exactly as given, whatever their characters and types", async () => {
    const { key, record } = await createKey();
    const batch = newBatch(record.customerId, 2);
    const odd = `Zoë "Ø" \\ 名前 😀 \u2028 '; DROP TABLE items; --`;
    const owner = { customerId: record.customerId, environment: "test" as const };
    batch.items[0] = validItem(owner, { fullName: odd, companyName: "Ünïcode GmbH" }, `crm\t${odd}`);
    batch.items[1] = validItem(owner, { email: "x@y.example" });
    const stub = batchStub(env, batch.id);
    faultyItemQueue(async () => {});
    await stub.create(batch);
    await untilAtRest(stub);

    const email = {
      address: `${odd}@x.example`,
      type: "work",
      status: "valid",
      confidence: 91,
      source: "sandbox",
    } as const;
    const phone = { number: "+12125550123", type: "mobile", confidence: 0, source: "sandbox" } as const;
    const sources = [{ name: "sandbox", outcome: "found" }] as const;
    expect(
      await stub.record([
        {
          index: 0,
          status: "completed",
          outcome: "found",
          emails: [email],
          phones: [phone],
          fromCache: true,
          sources: [...sources],
        },
        { index: 1, status: "failed", error: { code: "source_unavailable", message: odd }, sources: [] },
      ]),
    ).toEqual({ recorded: 2, notPending: [] });
    const { items } = await getStatus(key, batch.id);
    expect(items[0]).toEqual({
      index: 0,
      externalId: `crm\t${odd}`,
      status: "completed",
      outcome: "found",
      input: { fullName: odd, companyName: "Ünïcode GmbH" },
      emails: [email],
      phones: [phone],
      error: null,
      fromCache: true,
      credits: 0,
      sources,
    });
    expect(items[1]).toMatchObject({
      index: 1,
      externalId: null,
      status: "failed",
      error: { code: "source_unavailable", message: odd },
      sources: [],
    });
  });
});
