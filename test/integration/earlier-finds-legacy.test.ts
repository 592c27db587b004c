import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { batchStub } from "../../src/batch/stub";
import { createKey, faultyItemQueue, getStatus, newBatch, untilAtRest } from "../helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("what an item found before a wait, kept by a deploy before verification", () => {
  it("reads a finder's `probable` as unverified and leaves out an address it called invalid", async () => {
    const { key, record } = await createKey();
    const batch = newBatch(record.customerId, 1);
    const stub = batchStub(env, batch.id);
    faultyItemQueue(async () => {});
    await stub.create(batch);
    await untilAtRest(stub);
    const kept = (address: string, status: string) => ({
      address,
      type: "work",
      status,
      confidence: 75,
      source: "pattern",
    });
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec(
        "UPDATE items SET found_earlier = ? WHERE idx = 0",
        JSON.stringify({
          emails: [kept("kept@legacy.example", "probable"), kept("gone@legacy.example", "invalid")],
          phones: [],
        }),
      );
    });
    // The last attempt fails; the item completes with what was kept.
    await stub.record([
      { index: 0, status: "failed", error: { code: "source_unavailable", message: "down" }, sources: [] },
    ]);
    const [item] = (await getStatus(key, batch.id)).items;
    expect(item).toMatchObject({
      status: "completed",
      outcome: "found",
      emails: [kept("kept@legacy.example", "unverified")],
    });
  });
});
