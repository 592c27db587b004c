import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { batchStub } from "../../src/batch/stub";
import { MAX_FIELD_LENGTH, normalizePerson, personKey } from "../../src/contact-info/person";
import {
  batchProgress,
  createKey,
  faultyItemQueue,
  newBatch,
  person,
  sentItems,
  sentMessage,
  submitBatch,
  until,
  waitForCompletion,
} from "../helpers";

// The items sent to the item queue for one batch (other tests' batches share the queue).
const sentFor = (queue: ReturnType<typeof faultyItemQueue>, batchId: string) =>
  sentItems(queue.mock.calls).filter((item) => item.batchId === batchId);

describe("the batch object's fan-out", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("resumes where a failed send left it, losing no item", async () => {
    const { key, record } = await createKey();
    // Two sends' worth: a send takes up to 100 messages of 10 items.
    const batch = newBatch(record.customerId, 1250);
    const stub = batchStub(env, batch.id);
    let sends = 0;
    let sent = 0;
    const queue = faultyItemQueue(async (real, messages) => {
      if (++sends > 1) throw new Error("queue unavailable");
      await real(messages);
      sent = sentItems([[messages]]).length;
    });
    await stub.create(batch);
    const stalled = await until(() => batchProgress(stub), { what: "a failed send counted", done: (p) => p.enqueue_failures > 0 });
    expect(sent).toBeGreaterThan(0);
    expect(stalled.next_enqueue_index).toBe(sent);

    queue.mockRestore();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await batchProgress(stub)).next_enqueue_index).toBe(1250);
    expect(await waitForCompletion(key, batch.id)).toMatchObject({ completedItems: 1250, failedItems: 0 });
  });

  it("sends each item's person as normalized once at submission, with its key, and merged duplicates not at all", async () => {
    const { key } = await createKey();
    const queue = faultyItemQueue((real, messages) => real(messages));
    const ada = { firstName: "  Ada ", lastName: "LOVELACE", companyDomain: "Analytical.Example" };
    const grace = person({ firstName: "Grace", lastName: "Hopper" });
    const batchId = await submitBatch(key, { items: [ada, { ...ada, firstName: "ada" }, grace] });
    await waitForCompletion(key, batchId);

    const normalized = normalizePerson(ada);
    expect(normalized).toEqual({ firstName: "ada", lastName: "lovelace", companyDomain: "analytical.example" });
    const common = { batchId, environment: "test", fields: ["email", "phone"] };
    expect(sentFor(queue, batchId)).toEqual([
      { ...common, index: 0, person: normalized, personKey: personKey(normalized) },
      { ...common, index: 2, person: normalizePerson(grace), personKey: personKey(normalizePerson(grace)) },
    ]);
  });

  it("normalizes at fan-out an item stored without its person, as an older deploy stored it", async () => {
    const { record } = await createKey();
    const batch = newBatch(record.customerId, 2);
    expect(batch.items.every((item) => item.person === undefined && item.personKey === undefined)).toBe(true);
    // Messages that vanish: only what was sent matters here.
    const queue = faultyItemQueue(async () => {});
    await batchStub(env, batch.id).create(batch);
    await until(() => batchProgress(batchStub(env, batch.id)), { what: "the fan-out done", done: (p) => p.next_enqueue_index === 2 });

    expect(sentFor(queue, batch.id)).toEqual(
      batch.items.map((item, index) => {
        const normalized = normalizePerson(item.input);
        return {
          batchId: batch.id,
          index,
          environment: "test",
          fields: ["email", "phone"],
          person: normalized,
          personKey: personKey(normalized),
        };
      }),
    );
  });

  it("sends a batch's items ten to a message, each message in one piece", async () => {
    const { key } = await createKey();
    const queue = faultyItemQueue((real, messages) => real(messages));
    const batchId = await submitBatch(key, { items: Array.from({ length: 25 }, (_, i) => person({ firstName: `G${i}` })) });
    await waitForCompletion(key, batchId);

    const messages = queue.mock.calls.flatMap(([requests]) => [...requests].map(sentMessage)).filter((body) => body.batchId === batchId);
    expect(messages.map(({ items }) => items.map(({ index }) => index))).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
      [20, 21, 22, 23, 24],
    ]);
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
    expect((await batchProgress(batchStub(env, batchId))).enqueue_failures).toBe(0);
  });
});
