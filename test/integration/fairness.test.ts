import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../src/base/config";
import { batchStub } from "../../src/batch/stub";
import {
  createKey,
  faultyItemQueue,
  newBatch,
  person,
  sentItems,
  sentMessage,
  submitBatch,
  untilAtRest,
  waitForCompletion,
} from "../helpers";

const { fanOutWindowItems } = readConfig(env);

// What fairness costs in time under load (3 × 10,000 items beside a 1-item batch, as a ratio to the
// 1-item batch alone) is measured by `npm run bench:e2e -- --mode fairness`; this test pins the rule
// that bounds it: how many of one customer's items can ever be ahead of another's on the queue.
describe("fairness between customers", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("keeps at most FAN_OUT_WINDOW_ITEMS of each of one customer's batches on the queue, and sends another customer's 1-item batch at once", async () => {
    const big = await createKey();
    const small = await createKey();
    const batches = [0, 1, 2].map(() => newBatch(big.record.customerId, fanOutWindowItems + 1));
    const held = new Set(batches.map((batch) => batch.id));
    // The large batches' messages stay where the test counts them (never processed), so none of
    // their items is recorded and no window ever tops up; every other batch's go to the real queue.
    const queue = faultyItemQueue(async (real, messages) => {
      const through = [...messages].filter((message) => !held.has(sentMessage(message).batchId));
      if (through.length > 0) await real(through);
    });
    const sentFor = (batchId: string) => sentItems(queue.mock.calls).filter((item) => item.batchId === batchId);
    for (const batch of batches) {
      await batchStub(env, batch.id).create(batch);
      await untilAtRest(batchStub(env, batch.id));
    }
    for (const batch of batches) expect(sentFor(batch.id)).toHaveLength(fanOutWindowItems);

    const smallBatch = await submitBatch(small.key, { items: [person({ firstName: "Solo" })] });
    expect(await waitForCompletion(small.key, smallBatch)).toMatchObject({ status: "completed", completedItems: 1 });
    // At most three windows of the other customer's items were ahead of it, and each large batch
    // still holds back its last item.
    expect(sentFor(smallBatch)).toHaveLength(1);
    for (const batch of batches) expect(sentFor(batch.id)).toHaveLength(fanOutWindowItems);

    queue.mockRestore();
    for (const batch of batches) {
      const outcomes = batch.items.map((_, index) => ({
        index,
        status: "completed" as const,
        outcome: "not_found" as const,
        emails: [],
        phones: [],
        sources: [],
      }));
      await batchStub(env, batch.id).record(outcomes);
      expect(await waitForCompletion(big.key, batch.id)).toMatchObject({
        status: "completed",
        completedItems: batch.items.length,
      });
    }
  });
});
