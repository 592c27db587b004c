import { abortAllDurableObjects, evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { batchStub } from "../../../src/batch/stub";
import {
  createKey,
  createStoredBatch,
  deliver,
  getStatus,
  person,
  readBatch,
  readPages,
  type StatusBody,
  submitBatch,
  until,
  waitForCompletion,
} from "../../helpers";

/** What the items delivered are worth at the default prices (an email 1, a phone 10), each found item once. */
const deliveredWorth = (items: StatusBody["items"]) =>
  items.reduce((sum, item) => sum + (item.emails.length > 0 ? 1 : 0) + (item.phones.length > 0 ? 10 : 0), 0);

describe("redelivery", () => {
  it("keeps counters and credits exact whatever duplicates and order the queue delivers in", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.array(fc.nat(), { maxLength: 40 }), { minLength: 1, maxLength: 6 }),
        async (size, rounds) => {
          const items = Array.from({ length: size }, (_, i) =>
            person({ firstName: `R${i}`, companyDomain: i % 4 === 0 ? "notfound.test" : "r.example" }),
          );
          const { key, id, messages } = await createStoredBatch(items);
          // Random rounds of duplicated, shuffled deliveries, then every item once more.
          for (const round of [...rounds.map((picks) => picks.map((pick) => pick % size)), items.map((_, i) => i)]) {
            await deliver(
              "contact-info-items",
              round.map((index) => messages[index]!),
            );
          }
          const status = await getStatus(key, id);
          expect(status).toMatchObject({ status: "completed", totalItems: size, completedItems: size, failedItems: 0 });
          expect(status.creditsCharged).toBe(deliveredWorth(status.items));
          expect(status.items.map((item) => item.credits)).toEqual(status.items.map((item) => deliveredWorth([item])));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("keeps counters exact when batch objects are evicted again and again mid-batch", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, {
      items: Array.from({ length: 400 }, (_, i) => person({ firstName: `Evict${i}` })),
    });
    const stub = batchStub(env, batchId);
    // Evict each time the batch has moved on, until it completes: every eviction lands mid-batch.
    let evictions = 0;
    let finished = 0;
    await until(
      async () => {
        const batch = await readBatch(key, batchId);
        if (batch?.status === "completed") return true;
        const now = (batch?.completedItems ?? 0) + (batch?.failedItems ?? 0);
        if (now > finished) {
          finished = now;
          await evictDurableObject(stub).then(
            () => evictions++,
            () => undefined,
          );
        }
        return false;
      },
      { what: `batch ${batchId} completed while evicted`, timeoutMs: 60_000, intervalMs: 10 },
    );
    expect(evictions).toBeGreaterThanOrEqual(2);
    expect(await getStatus(key, batchId)).toMatchObject({ totalItems: 400, completedItems: 400, failedItems: 0 });
  });

  it("keeps counters and credits exact when every object is aborted mid-batch", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, {
      items: Array.from({ length: 300 }, (_, i) =>
        person({ firstName: `Abort${i}`, companyDomain: i % 3 ? "a.example" : "flaky.test" }),
      ),
    });
    // Abort once some items are done, and again once more are: both times mid-batch.
    const progress = async () => {
      const batch = await readBatch(key, batchId);
      return {
        open: batch?.status !== "completed",
        finished: (batch?.completedItems ?? 0) + (batch?.failedItems ?? 0),
      };
    };
    const first = await until(progress, {
      what: `batch ${batchId} partly processed`,
      done: ({ finished }) => finished > 0,
      intervalMs: 5,
    });
    expect(first.open).toBe(true);
    await abortAllDurableObjects();
    const second = await until(progress, {
      what: `batch ${batchId} processed further`,
      done: ({ finished }) => finished > first.finished,
      intervalMs: 5,
    });
    expect(second.open).toBe(true);
    await abortAllDurableObjects();
    const status = await waitForCompletion(key, batchId, 60_000);
    expect(status).toMatchObject({ totalItems: 300, completedItems: 300, failedItems: 0 });
    const items = (await readPages(key, batchId, { limit: 100 })).flatMap((page) => page.items);
    expect(status.creditsCharged).toBe(deliveredWorth(items));
    expect(status.creditsCharged).toBeGreaterThan(300);
  });
});
