import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { batchStub } from "../../src/batch/stub";
import { createKey, getStatus, person, submitBatch, waitForCompletion } from "../helpers";

describe("the batch object across instances", () => {
  it("keeps exact counters when evicted in the middle of a batch", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: Array.from({ length: 300 }, (_, i) => person({ firstName: `E${i}` })) });
    const stub = batchStub(env, batchId);
    await evictDurableObject(stub);
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ totalItems: 300, completedItems: 300, failedItems: 0 });
    await evictDurableObject(stub);
    expect(await getStatus(key, batchId)).toMatchObject({ completedItems: 300, failedItems: 0 });
  });

  it("leaves no storage behind for an id that was never a batch", async () => {
    const stub = batchStub(env, crypto.randomUUID());
    expect(await stub.status({ customerId: "cus_x", environment: "test" }, { fromIndex: 0, limit: 10 })).toEqual({ kind: "none" });
    const tables = await runInDurableObject(stub, (_, state) => state.storage.sql.exec("SELECT name FROM sqlite_master").toArray());
    expect(tables).toEqual([]);
  });
});
