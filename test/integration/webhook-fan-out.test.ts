import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  createEndpoint,
  createKey,
  createStoredBatch,
  deliver,
  deliveryLog,
  hookCall,
  hookLimits,
  person,
  receivedAt,
  receiverPath,
  submitBatch,
  until,
  waitForCompletion,
} from "../helpers";

describe("batch events to the customer's endpoints", () => {
  it("send batch.completed to each enabled endpoint subscribed to it, and to none other, beside the batch's own webhookUrl", async () => {
    const { key, record } = await createKey({ rateLimits: hookLimits });
    const [subscribed, other, disabled, deleted, own] = [
      receiverPath("ok"),
      receiverPath("ok"),
      receiverPath("ok"),
      receiverPath("ok"),
      receiverPath("ok"),
    ];
    const hook = await createEndpoint(key, { url: `https://hooks.test${subscribed}`, events: ["batch.completed"] });
    await createEndpoint(key, { url: `https://hooks.test${other}`, events: ["webhook.test"] });
    const off = await createEndpoint(key, { url: `https://hooks.test${disabled}`, events: ["batch.completed"] });
    await hookCall(key, "PATCH", `/webhook-endpoints/${off.id}`, { status: "disabled" });
    const gone = await createEndpoint(key, { url: `https://hooks.test${deleted}`, events: ["batch.completed"] });
    await hookCall(key, "DELETE", `/webhook-endpoints/${gone.id}`);

    const batchId = await submitBatch(key, { items: [person()], webhookUrl: `https://hooks.test${own}` });
    await waitForCompletion(key, batchId);
    const [received] = await until(() => receivedAt(subscribed), {
      what: "batch.completed at the endpoint",
      done: (list) => list.length === 1,
    });
    const [ownDelivery] = await until(() => receivedAt(own), {
      what: "batch.completed at the batch's webhookUrl",
      done: (list) => list.length === 1,
    });
    const event = new Webhook(hook.secret).verify(received!.body, received!.headers);
    expect(event).toMatchObject({ type: "batch.completed", data: { id: batchId, status: "completed" } });
    // The same event, byte for byte, as the batch's own webhook: one event, several receivers.
    expect(received!.body).toBe(ownDelivery!.body);

    const log = await until(
      async () =>
        (await hookCall(key, "GET", `/webhook-deliveries?endpointId=${hook.id}&type=batch.completed`)).json<{
          deliveries: { id: string; status: string }[];
        }>(),
      { what: "the delivery logged as succeeded", done: (page) => page.deliveries[0]?.status === "succeeded" },
    );
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]!.id).toBe(received!.headers["webhook-id"]);
    // The batch's own webhook is in the log too: no endpoint, its webhook-id the batch's event id.
    const all = await until(() => deliveryLog(key), {
      what: "the batch's own webhook logged",
      done: (page) =>
        page.deliveries.some((delivery) => delivery.endpointId === null && delivery.status === "succeeded"),
    });
    expect(all.deliveries.map((delivery) => delivery.endpointId).sort()).toEqual([hook.id, null].sort());
    const mine = all.deliveries.find((delivery) => delivery.endpointId === null)!;
    expect(mine).toMatchObject({ id: ownDelivery!.headers["webhook-id"], type: "batch.completed" });
    expect(mine.attempts).toEqual([expect.objectContaining({ statusCode: 204, error: null })]);
    expect((await hookCall(key, "POST", `/webhook-deliveries/${mine.id}/redeliver`)).status).toBe(202);
    const again = await until(() => receivedAt(own), {
      what: "the own webhook redelivered",
      done: (list) => list.length === 2,
    });
    expect(again[1]!.headers["webhook-id"]).toBe(mine.id);
    expect(new Webhook(record.webhookSecret!).verify(again[1]!.body, again[1]!.headers)).toMatchObject({
      type: "batch.completed",
    });
    for (const path of [other, disabled, deleted]) expect(await receivedAt(path)).toEqual([]);
  });

  it("send nothing to another customer's endpoints", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const { key: other } = await createKey({ rateLimits: hookLimits });
    const path = receiverPath("ok");
    await createEndpoint(other, { url: `https://hooks.test${path}`, events: ["batch.completed"] });
    await waitForCompletion(key, await submitBatch(key, { items: [person()] }));
    const mine = receiverPath("ok");
    await createEndpoint(key, { url: `https://hooks.test${mine}`, events: ["batch.completed"] });
    await waitForCompletion(key, await submitBatch(key, { items: [person()] }));
    await until(() => receivedAt(mine), { what: "my second batch's event", done: (list) => list.length === 1 });
    expect(await receivedAt(path)).toEqual([]);
  });

  it("send item.completed to each endpoint subscribed to it, each item once across a redelivered message, and to none other", async () => {
    const owner = await createKey({ rateLimits: hookLimits });
    const { key: otherKey } = await createKey({ rateLimits: hookLimits });
    const [items, completedOnly, theirs] = [receiverPath("ok"), receiverPath("ok"), receiverPath("ok")];
    const hook = await createEndpoint(owner.key, { url: `https://hooks.test${items}`, events: ["item.completed"] });
    await createEndpoint(owner.key, { url: `https://hooks.test${completedOnly}`, events: ["batch.completed"] });
    await createEndpoint(otherKey, { url: `https://hooks.test${theirs}`, events: ["item.completed"] });
    const people = [0, 1, 2].map((n) => person({ lastName: `Fanout${n}` }));
    const { id, messages } = await createStoredBatch(people, owner);

    // The first item's message is delivered twice (a redelivery), then all three at once.
    await deliver("contact-info-items", [messages[0]!]);
    await deliver("contact-info-items", [messages[0]!]);
    await deliver("contact-info-items", messages);
    await waitForCompletion(owner.key, id);
    await until(() => receivedAt(completedOnly), { what: "batch.completed", done: (list) => list.length === 1 });
    const received = await until(() => receivedAt(items), {
      what: "every item at the endpoint",
      done: (list) => list.length === 2,
    });
    for (const delivery of received) {
      expect(new Webhook(hook.secret).verify(delivery.body, delivery.headers)).toMatchObject({
        type: "item.completed",
        data: { batchId: id },
      });
    }
    const indexes = received
      .flatMap((delivery) => {
        const body: { data: { items: { index: number }[] } } = JSON.parse(delivery.body);
        return body.data.items.map((item) => item.index);
      })
      .sort();
    expect(indexes).toEqual([0, 1, 2]);
    // The log holds one delivery per event, all succeeded: none is made again, and none left to send.
    const log = await until(() => deliveryLog(owner.key, "?type=item.completed"), {
      what: "the item deliveries settled",
      done: (page) => page.deliveries.length === 2 && page.deliveries.every(({ status }) => status === "succeeded"),
    });
    expect(new Set(log.deliveries.map((delivery) => delivery.id))).toEqual(
      new Set(received.map((delivery) => delivery.headers["webhook-id"])),
    );
    expect((await receivedAt(completedOnly)).map(({ body }) => JSON.parse(body).type)).toEqual(["batch.completed"]);
    expect(await receivedAt(theirs)).toEqual([]);
  });
});
