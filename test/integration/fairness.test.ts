import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config";
import { createKey, person, readBatch, submitBatch, until } from "../helpers";

const { fanOutWindowItems, maxBatchItems } = readConfig(env);

describe("fairness between customers", () => {
  it("finishes another customer's 1-item batch before any of one customer's three full batches submitted first", async () => {
    expect(maxBatchItems).toBeGreaterThan(fanOutWindowItems * 2);
    const big = await createKey();
    const small = await createKey();
    // Distinct people, so every item is enqueued and processed (no merged duplicates).
    const items = (batch: number) => Array.from({ length: maxBatchItems }, (_, i) => person({ firstName: `B${batch}x${i}` }));
    const bigBatches = [];
    for (const batch of [0, 1, 2]) bigBatches.push(await submitBatch(big.key, { items: items(batch) }));
    const smallBatch = await submitBatch(small.key, { items: [person({ firstName: "Solo" })] });

    const finished = async (key: string, batchId: string) =>
      (await until(() => readBatch(key, batchId), {
        what: `batch ${batchId} completed`,
        done: (b) => b?.completedAt != null,
        timeoutMs: 180_000,
      }))!.completedAt!;
    const smallDone = await finished(small.key, smallBatch);
    const bigDone = await Promise.all(bigBatches.map((batchId) => finished(big.key, batchId)));
    // Each large batch kept at most its window on the queue, so the small batch's item waited behind
    // at most three windows, not 30,000 items.
    for (const done of bigDone) expect(Date.parse(smallDone)).toBeLessThan(Date.parse(done));
  }, 240_000);
});
