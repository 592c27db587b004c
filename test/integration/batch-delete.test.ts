import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { batchStub } from "../../src/batch/stub";
import type { PersonInput } from "../../src/contact-info/person";
import type { ItemMessage } from "../../src/queue-messages/item-message";
import { webhookSender } from "../../src/webhooks/webhook-sender";
import {
  createKey,
  deliver,
  expectProblem,
  faultyItemQueue,
  getStatus,
  itemMessage,
  person,
  request,
  submitBatch,
  until,
  waitForCompletion,
} from "../helpers";
import { captureLogs } from "../log-capture";

const remove = (key: string, id: string, environment = "test") =>
  request(`/v2/${environment}/person/contact-info/${id}`, { method: "DELETE", key });

const messagesFor = (batchId: string, inputs: PersonInput[], customerId: string): ItemMessage[] =>
  inputs.map((input, index) => itemMessage(batchId, index, input, customerId));

/** What the batch object still stores: its items, and the tombstone row. */
const stored = (id: string) =>
  runInDurableObject(batchStub(env, id), (_, state) => ({
    items: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM items").one().n,
    row: state.storage.sql
      .exec<{
        webhook_url: string | null;
        webhook_secret: string | null;
        total_items: number;
        deleted_at: string | null;
      }>("SELECT webhook_url, webhook_secret, total_items, deleted_at FROM batch")
      .one(),
  }));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("DELETE /v2/{environment}/person/contact-info/{id}", () => {
  it("erases a pending batch: its queue messages are then dropped unrecorded, and it reads as 410 batch_deleted", async () => {
    // The queue refuses the fan-out, so every item stays pending until the test delivers its messages.
    faultyItemQueue(async () => {
      throw new Error("queue down");
    });
    const { key, record } = await createKey();
    const inputs = [person(), person({ firstName: "B" })];
    const batchId = await submitBatch(key, { items: inputs });
    expect((await getStatus(key, batchId)).status).toBe("pending");

    const response = await remove(key, batchId);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    const gone = await expectProblem(
      await request(`/v2/test/person/contact-info/${batchId}`, { key }),
      410,
      "batch_deleted",
    );
    expect(Date.parse(gone.deletedAt as string)).toBeLessThanOrEqual(Date.now());
    expect(await stored(batchId)).toEqual({
      items: 0,
      row: { webhook_url: null, webhook_secret: null, total_items: 2, deleted_at: gone.deletedAt },
    });

    const logs = captureLogs();
    const result = await deliver("contact-info-items", messagesFor(batchId, inputs, record.customerId));
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    expect(logs.events("items_dropped")).toEqual([expect.objectContaining({ items: 2 })]);
    expect(logs.events("items_recorded")).toEqual([]);
    expect((await stored(batchId)).items).toBe(0);

    // Nothing left for the alarm to do once the deletion is reported.
    await runDurableObjectAlarm(batchStub(env, batchId));
    expect(await runInDurableObject(batchStub(env, batchId), (_, state) => state.storage.getAlarm())).toBeNull();
  });

  it("answers 204 again for a batch already deleted, keeping the first deletedAt", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person()] });
    expect((await remove(key, batchId)).status).toBe(204);
    const first = await expectProblem(
      await request(`/v2/test/person/contact-info/${batchId}`, { key }),
      410,
      "batch_deleted",
    );
    expect((await remove(key, batchId)).status).toBe(204);
    const second = await expectProblem(
      await request(`/v2/test/person/contact-info/${batchId}`, { key }),
      410,
      "batch_deleted",
    );
    expect(second.deletedAt).toBe(first.deletedAt);
  });

  it("erases a completed batch", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person(), { bad: 1 }] });
    expect((await waitForCompletion(key, batchId)).status).toBe("completed");
    expect((await remove(key, batchId)).status).toBe(204);
    await expectProblem(await request(`/v2/test/person/contact-info/${batchId}`, { key }), 410, "batch_deleted");
    expect((await stored(batchId)).items).toBe(0);
  });

  it("answers 404 for another customer's batch, the owner's batch in the other environment, and unknown ids; the batch stays", async () => {
    const customerId = `cus_${crypto.randomUUID()}`;
    const owner = await createKey({ customerId });
    const live = await createKey({ customerId, environment: "live" });
    const other = await createKey();
    const batchId = await submitBatch(owner.key, { items: [person()] });
    await expectProblem(await remove(other.key, batchId), 404, "not_found");
    await expectProblem(await remove(live.key, batchId, "live"), 404, "not_found");
    await expectProblem(await remove(owner.key, crypto.randomUUID()), 404, "not_found");
    await expectProblem(await remove(owner.key, "not-a-uuid"), 404, "not_found");
    expect((await getStatus(owner.key, batchId)).id).toBe(batchId);
  });

  it("sends no webhook afterwards: the batch's sender finds nothing to deliver", async () => {
    const path = `/ok/${crypto.randomUUID()}`;
    // Complete at birth, its webhook not yet handed to the queue when the delete comes.
    const send = vi.spyOn(env.WEBHOOK_QUEUE, "send").mockRejectedValue(new Error("queue down"));
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [{ bad: 1 }], webhookUrl: `https://hooks.test${path}` });
    await until(() => send.mock.calls.length, { what: "the webhook hand-off tried", done: (calls) => calls > 0 });
    expect((await remove(key, batchId)).status).toBe(204);
    send.mockRestore();
    const handOff = vi.spyOn(env.WEBHOOK_QUEUE, "send");

    await runDurableObjectAlarm(batchStub(env, batchId));
    expect(handOff).not.toHaveBeenCalled();
    // Even a hand-off already on its way finds nothing: the sender stops without posting.
    const sender = webhookSender(env, batchId);
    await sender.start(batchId);
    await runDurableObjectAlarm(sender);
    await until(() => runInDurableObject(sender, (_, state) => state.storage.kv.get("delivery")), {
      what: "the sender finished",
      done: (state) => state === undefined,
    });
    expect(await (await fetch(`https://hooks.test/__deliveries${path}`)).json()).toEqual([]);
  });
});
