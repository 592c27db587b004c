import { abortAllDurableObjects, createExecutionContext, createMessageBatch, evictDurableObject, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { batchStub } from "../../../src/batch/stub";
import entry from "../../../src/index";
import type { ItemMessage } from "../../../src/queue/item-message";
import { createKey, getStatus, person, submitBatch, waitForCompletion } from "../../helpers";

const worker = entry as ExportedHandler<Env, ItemMessage> & { queue: NonNullable<ExportedHandler<Env, ItemMessage>["queue"]> };

describe("redelivery", () => {
  it("keeps counters exact whatever duplicates and order the queue delivers in", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.array(fc.nat(), { maxLength: 40 }), { minLength: 1, maxLength: 6 }),
        async (size, rounds) => {
          const { key, record } = await createKey();
          const id = crypto.randomUUID();
          const items = Array.from({ length: size }, (_, i) => person({ firstName: `R${i}`, companyDomain: i % 4 === 0 ? "notfound.test" : "r.example" }));
          await batchStub(env, id).create({
            id,
            customerId: record.customerId,
            environment: "test",
            keyId: record.keyId,
            fields: ["email", "phone"],
            createdAt: new Date().toISOString(),
            statusUrl: "https://api.test/x",
            items: items.map((input) => ({ input, externalId: null, error: null })),
          });
          const message = (index: number): ItemMessage => ({ batchId: id, index, environment: "test", fields: ["email", "phone"], input: items[index]! });
          // Random rounds of duplicated, shuffled deliveries, then every item once more.
          for (const round of [...rounds.map((picks) => picks.map((pick) => pick % size)), items.map((_, i) => i)]) {
            const batch = createMessageBatch<ItemMessage>(
              "contact-info-items",
              round.map((index, n) => ({ id: `m-${n}-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body: message(index) })),
            );
            const ctx = createExecutionContext();
            await worker.queue(batch, env, ctx);
            await getQueueResult(batch, ctx);
          }
          const status = await getStatus(key, id);
          expect(status).toMatchObject({ status: "completed", totalItems: size, completedItems: size, failedItems: 0 });
        },
      ),
      { numRuns: 40 },
    );
  });

  it("keeps counters exact when batch objects are evicted again and again mid-batch", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: Array.from({ length: 400 }, (_, i) => person({ firstName: `Evict${i}` })) });
    const stub = batchStub(env, batchId);
    let evictions = 0;
    const evicting = (async () => {
      for (let i = 0; i < 20; i++) {
        await evictDurableObject(stub).then(() => evictions++, () => undefined);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const status = await waitForCompletion(key, batchId, 60_000);
    await evicting;
    expect(evictions).toBeGreaterThan(0);
    expect(status).toMatchObject({ totalItems: 400, completedItems: 400, failedItems: 0 });
  });

  it("keeps counters exact when every object is aborted mid-batch", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: Array.from({ length: 300 }, (_, i) => person({ firstName: `Abort${i}`, companyDomain: i % 3 ? "a.example" : "flaky.test" })) });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await abortAllDurableObjects();
    await new Promise((resolve) => setTimeout(resolve, 60));
    await abortAllDurableObjects();
    const status = await waitForCompletion(key, batchId, 60_000);
    expect(status).toMatchObject({ totalItems: 300, completedItems: 300, failedItems: 0 });
  });
});
