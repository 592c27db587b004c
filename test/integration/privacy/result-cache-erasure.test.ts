import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { batchStub } from "../../../src/batch/stub";
import { DEFAULT_MAX_AGE_DAYS } from "../../../src/batch/submission";
import { normalizePerson, type PersonInput, personKey } from "../../../src/contact-info/person";
import type { ItemMessage } from "../../../src/queue-messages/item-message";
import { callsMentioning } from "../../fakes/upstreams";
import { createKey, deliver, faultyItemQueue, request, submitBatch, until, waitForCompletion } from "../../helpers";
import { keyedHashes } from "../../keyed-hash";

// The result cache is per customer, and erasure reaches it: the live pipeline
// through the real queue, the real local KV, and vendors faked at the HTTP boundary.
/** The vendors' calls about `person` (its unique last name), whatever other files' batches do meanwhile. */
const vendorCalls = async (person: PersonInput) =>
  (await callsMentioning("hunter.test", person.lastName!.toLowerCase())) +
  (await callsMentioning("pdl.test", person.lastName!.toLowerCase()));

const remove = (key: string, id: string) => request(`/v2/live/person/contact-info/${id}`, { method: "DELETE", key });

/** The customer's live result-cache keys. */
const cachedFor = async (customerId: string) =>
  (await env.RESULT_CACHE.list({ prefix: `result:live:${customerId}:` })).keys.map(({ name }) => name);

/** A person the vendors find, met by no other test. */
const someone = (): PersonInput => ({
  firstName: "Erin",
  lastName: `Cache${crypto.randomUUID().slice(0, 8)}`,
  companyDomain: "erasure.example",
});

/** Runs the batch's alarm until it has nothing left to purge. */
async function untilPurged(batchId: string) {
  const stub = batchStub(env, batchId);
  await until(
    async () => {
      await runDurableObjectAlarm(stub);
      return runInDurableObject(
        stub,
        (_, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM cache_purge").one().n,
      );
    },
    { what: "the cache_purge rows left", done: (left) => left === 0 },
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the result cache", () => {
  it("serves a customer's own results again, and asks the vendors for another customer's same person", async () => {
    const person = someone();
    const first = await createKey({ environment: "live" });
    const mine = await waitForCompletion(first.key, await submitBatch(first.key, { items: [person] }, "live"));
    expect(mine.items[0]).toMatchObject({ outcome: "found", fromCache: false });
    expect(await cachedFor(first.record.customerId)).toHaveLength(1);

    const before = await vendorCalls(person);
    const other = await createKey({ environment: "live" });
    const theirs = await waitForCompletion(other.key, await submitBatch(other.key, { items: [person] }, "live"));
    expect(theirs.items[0]).toMatchObject({ outcome: "found", fromCache: false });
    expect(await vendorCalls(person)).toBeGreaterThan(before);

    const after = await vendorCalls(person);
    const again = await waitForCompletion(first.key, await submitBatch(first.key, { items: [person] }, "live"));
    expect(again.items[0]).toMatchObject({ outcome: "found", fromCache: true, emails: mine.items[0]!.emails });
    expect(await vendorCalls(person)).toBe(after);
  });
});

describe("DELETE of a live batch", () => {
  it("deletes its people's result-cache entries, under the customer's keys", async () => {
    const { key, record } = await createKey({ environment: "live" });
    const people = [someone(), someone(), someone()];
    const batchId = await submitBatch(key, { items: people }, "live");
    expect((await waitForCompletion(key, batchId)).completedItems).toBe(3);
    expect(await cachedFor(record.customerId)).toHaveLength(3);

    expect((await remove(key, batchId)).status).toBe(204);
    await untilPurged(batchId);
    expect(await cachedFor(record.customerId)).toEqual([]);
  });

  it("leaves no cache entry for an item in flight at the deletion", async () => {
    // The fan-out is refused, so the item stays pending until the test delivers its message.
    faultyItemQueue(async () => {
      throw new Error("queue down");
    });
    const { key, record } = await createKey({ environment: "live" });
    const input = someone();
    const batchId = await submitBatch(key, { items: [input] }, "live");
    const person = normalizePerson(input);
    const message: ItemMessage = {
      batchId,
      customerId: record.customerId,
      environment: "live",
      fields: ["email", "phone"],
      maxAgeDays: DEFAULT_MAX_AGE_DAYS,
      items: [
        { index: 0, person, personKey: personKey(person), hashes: keyedHashes(record.customerId, "live", person) },
      ],
    };

    // The consumer is held at its cache lookup (past the pending check) while the batch is deleted.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const lookup = vi.fn();
    vi.spyOn(env.RESULT_CACHE, "get").mockImplementation((async () => {
      lookup();
      await held;
      return null;
    }) as never);
    const before = await vendorCalls(input);
    const delivery = deliver("contact-info-items", [message]);
    await until(() => lookup.mock.calls.length, { what: "the consumer at its cache lookup", done: (n) => n > 0 });
    expect((await remove(key, batchId)).status).toBe(204);
    release();
    const result = await delivery;
    expect(result.explicitAcks).toHaveLength(1);
    // The item was enriched, and its result refused.
    expect(await vendorCalls(input)).toBeGreaterThan(before);

    await untilPurged(batchId);
    expect(await cachedFor(record.customerId)).toEqual([]);
  });
});
