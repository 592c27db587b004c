import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { batchStub } from "../../src/batch/stub";
import { createStoredBatch, deliver, getStatus, person } from "../helpers";

describe("the batch object across instances", () => {
  it("keeps exact counters when evicted in the middle of a batch", async () => {
    // Its messages vanish: the test delivers them, half before the eviction and half after.
    const { key, id, messages } = await createStoredBatch(
      Array.from({ length: 300 }, (_, i) => person({ firstName: `E${i}` })),
    );
    await deliver("contact-info-items", messages.slice(0, 150));
    const stub = batchStub(env, id);
    expect(await getStatus(key, id)).toMatchObject({ status: "processing", completedItems: 150, failedItems: 0 });

    await evictDurableObject(stub);
    // A redelivered message after the eviction counts nothing twice.
    await deliver("contact-info-items", messages.slice(140), 2);
    expect(await getStatus(key, id)).toMatchObject({
      status: "completed",
      totalItems: 300,
      completedItems: 300,
      failedItems: 0,
    });
    await evictDurableObject(stub);
    expect(await getStatus(key, id)).toMatchObject({ completedItems: 300, failedItems: 0 });
  });

  it("leaves no storage behind for an id that was never a batch", async () => {
    const stub = batchStub(env, crypto.randomUUID());
    expect(await stub.status({ customerId: "cus_x", environment: "test" }, { fromIndex: 0, limit: 10 })).toEqual({
      kind: "none",
    });
    const tables = await runInDurableObject(stub, (_, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master").toArray(),
    );
    expect(tables).toEqual([]);
  });
});
