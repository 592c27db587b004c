import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createKey, person, request, submitBatch, until, waitForCompletion } from "../helpers";

type Delivery = { headers: Record<string, string>; body: string };
const deliveriesTo = async (path: string) => (await fetch(`https://hooks.test/__deliveries${path}`)).json<Delivery[]>();
const unique = (prefix: string) => `/${prefix}/${crypto.randomUUID()}`;

const limits = {
  contact_info_request: { limit: 1000, windowSeconds: 60 },
  contact_info_status: { limit: 1000, windowSeconds: 60 },
};

async function call(key: string, method: string, path: string, body?: unknown) {
  return request(`/v2/test${path}`, {
    method,
    key,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
}

async function endpoint(key: string, path: string, events: string[]) {
  const response = await call(key, "POST", "/webhook-endpoints", { url: `https://hooks.test${path}`, events });
  expect(response.status).toBe(201);
  return response.json<{ id: string; secret: string }>();
}

describe("batch events to the customer's endpoints", () => {
  it("send batch.completed to each enabled endpoint subscribed to it, and to none other, beside the batch's own webhookUrl", async () => {
    const { key } = await createKey({ rateLimits: limits });
    const [subscribed, other, disabled, deleted, own] = [
      unique("ok"),
      unique("ok"),
      unique("ok"),
      unique("ok"),
      unique("ok"),
    ];
    const hook = await endpoint(key, subscribed, ["batch.completed"]);
    await endpoint(key, other, ["webhook.test"]);
    const off = await endpoint(key, disabled, ["batch.completed"]);
    await call(key, "PATCH", `/webhook-endpoints/${off.id}`, { status: "disabled" });
    const gone = await endpoint(key, deleted, ["batch.completed"]);
    await call(key, "DELETE", `/webhook-endpoints/${gone.id}`);

    const batchId = await submitBatch(key, { items: [person()], webhookUrl: `https://hooks.test${own}` });
    await waitForCompletion(key, batchId);
    const [received] = await until(() => deliveriesTo(subscribed), {
      what: "batch.completed at the endpoint",
      done: (list) => list.length === 1,
    });
    const [ownDelivery] = await until(() => deliveriesTo(own), {
      what: "batch.completed at the batch's webhookUrl",
      done: (list) => list.length === 1,
    });
    const event = new Webhook(hook.secret).verify(received!.body, received!.headers);
    expect(event).toMatchObject({ type: "batch.completed", data: { id: batchId, status: "completed" } });
    // The same event, byte for byte, as the batch's own webhook: one event, several receivers.
    expect(received!.body).toBe(ownDelivery!.body);

    const log = await until(
      async () =>
        (await call(key, "GET", `/webhook-deliveries?endpointId=${hook.id}&type=batch.completed`)).json<{
          deliveries: { id: string; status: string }[];
        }>(),
      { what: "the delivery logged as succeeded", done: (page) => page.deliveries[0]?.status === "succeeded" },
    );
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]!.id).toBe(received!.headers["webhook-id"]);
    const all = await (await call(key, "GET", "/webhook-deliveries")).json<{ deliveries: { endpointId: string }[] }>();
    expect(all.deliveries.map((delivery) => delivery.endpointId)).toEqual([hook.id]);
    for (const path of [other, disabled, deleted]) expect(await deliveriesTo(path)).toEqual([]);
  });

  it("send nothing to another customer's endpoints", async () => {
    const { key } = await createKey({ rateLimits: limits });
    const { key: other } = await createKey({ rateLimits: limits });
    const path = unique("ok");
    await endpoint(other, path, ["batch.completed"]);
    await waitForCompletion(key, await submitBatch(key, { items: [person()] }));
    const mine = unique("ok");
    await endpoint(key, mine, ["batch.completed"]);
    await waitForCompletion(key, await submitBatch(key, { items: [person()] }));
    await until(() => deliveriesTo(mine), { what: "my second batch's event", done: (list) => list.length === 1 });
    expect(await deliveriesTo(path)).toEqual([]);
  });
});
