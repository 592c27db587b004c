import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../src/base/config";
import { batchStub } from "../../src/batch/stub";
import { MAX_FIELD_LENGTH, type NormalizedPerson, normalizePerson, personKey } from "../../src/contact-info/person";
import { identifierKeys } from "../../src/contact-info/person-keys";
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
  untilAtRest,
  waitForCompletion,
} from "../helpers";
import { keyedHash } from "../keyed-hash";

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
    // The queue binding is the isolate's: other files' batches send through it too, and pass.
    const queue = faultyItemQueue(async (real, messages) => {
      const requests = [...messages];
      if (!requests.some((request) => sentMessage(request).batchId === batch.id)) return real(requests);
      if (++sends > 1) throw new Error("queue unavailable");
      await real(requests);
      sent = sentItems([[requests]]).length;
    });
    await stub.create(batch);
    const stalled = await until(() => batchProgress(stub), {
      what: "a failed send counted",
      done: (p) => p.enqueue_failures > 0,
    });
    expect(sent).toBeGreaterThan(0);
    expect(stalled.next_enqueue_index).toBe(sent);

    queue.mockRestore();
    // The alarm resumes it: run now unless it is running already (recorded items re-arm it at once).
    await runDurableObjectAlarm(stub);
    await until(() => batchProgress(stub), { what: "every item enqueued", done: (p) => p.next_enqueue_index === 1250 });
    expect(await waitForCompletion(key, batch.id)).toMatchObject({ completedItems: 1250, failedItems: 0 });
  });

  it("keeps at most FAN_OUT_WINDOW_ITEMS items on the queue, and sends more once half the window is recorded", async () => {
    const { key, record } = await createKey();
    const { fanOutWindowItems } = readConfig(env);
    const batch = newBatch(record.customerId, fanOutWindowItems * 2 + 500);
    const stub = batchStub(env, batch.id);
    // The messages vanish: only what the test records leaves the window.
    const queue = faultyItemQueue(async () => {});
    await stub.create(batch);
    await untilAtRest(stub);
    const sentIndexes = () => sentFor(queue, batch.id).map(({ index }) => index);
    expect(sentIndexes()).toEqual(Array.from({ length: fanOutWindowItems }, (_, i) => i));

    // Recording less than half the window sends nothing more.
    const done = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        index: from + i,
        status: "completed" as const,
        outcome: "not_found" as const,
        emails: [],
        phones: [],
        sources: [],
      }));
    await stub.record(done(0, fanOutWindowItems / 2 - 1));
    await untilAtRest(stub);
    expect(sentIndexes()).toHaveLength(fanOutWindowItems);

    // Half the window recorded: the batch tops it up to a full window again.
    await stub.record(done(fanOutWindowItems / 2 - 1, 1));
    await until(sentIndexes, {
      what: "the window topped up",
      done: (sent) => sent.length === (fanOutWindowItems * 3) / 2,
    });
    await untilAtRest(stub);
    expect(sentIndexes()).toEqual(Array.from({ length: (fanOutWindowItems * 3) / 2 }, (_, i) => i));
    queue.mockRestore();
    await stub.record(done(fanOutWindowItems / 2, batch.items.length - fanOutWindowItems / 2));
    expect(await waitForCompletion(key, batch.id)).toMatchObject({
      status: "completed",
      completedItems: batch.items.length,
    });
  });

  it("sends each item's person as normalized and hashed once at submission, with its key, and merged duplicates not at all", async () => {
    const { key, record } = await createKey();
    const queue = faultyItemQueue((real, messages) => real(messages));
    const ada = { firstName: "  Ada ", lastName: "LOVELACE", companyDomain: "Analytical.Example" };
    const grace = person({ firstName: "Grace", lastName: "Hopper" });
    const batchId = await submitBatch(key, { items: [ada, { ...ada, firstName: "ada" }, grace] });
    await waitForCompletion(key, batchId);

    const normalized = normalizePerson(ada);
    expect(normalized).toEqual({ firstName: "ada", lastName: "lovelace", companyDomain: "analytical.example" });
    const common = { batchId, environment: "test", fields: ["email", "phone"] };
    // The hashes the do-not-enrich check and the result cache read, made by node:crypto here.
    const hash = (text: string) => keyedHash(record.customerId, "test", text);
    const sent = (index: number, person: NormalizedPerson) => ({
      ...common,
      index,
      person,
      personKey: personKey(person),
      hashes: { person: hash(personKey(person)), keys: identifierKeys(person).map(hash) },
    });
    expect(sentFor(queue, batchId)).toEqual([sent(0, normalized), sent(2, normalizePerson(grace))]);
  });

  it("sends a batch's items ten to a message, each message in one piece", async () => {
    const { key } = await createKey();
    const queue = faultyItemQueue((real, messages) => real(messages));
    const batchId = await submitBatch(key, {
      items: Array.from({ length: 25 }, (_, i) => person({ firstName: `G${i}` })),
    });
    await waitForCompletion(key, batchId);

    const messages = queue.mock.calls
      .flatMap(([requests]) => [...requests].map(sentMessage))
      .filter((body) => body.batchId === batchId);
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
