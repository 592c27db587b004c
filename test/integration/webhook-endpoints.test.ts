import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { MAX_ENDPOINTS } from "../../src/webhooks/endpoint-events";
import {
  createEndpoint,
  createKey,
  deliveryLog,
  expectProblem,
  hookCall,
  hookLimits,
  receivedAt,
  receiverPath,
  request,
  until,
} from "../helpers";

describe("webhook endpoints", () => {
  it("are created with a whsec_ secret shown once, listed, read, changed and deleted", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const created = await createEndpoint(key, {
      url: "https://hooks.test/crud",
      events: ["batch.completed"],
      description: "ops",
    });
    expect(created).toMatchObject({ url: "https://hooks.test/crud", events: ["batch.completed"], status: "enabled" });
    expect(created.id).toMatch(/^ep_[0-9a-f]{32}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const list = await (await hookCall(key, "GET", "/webhook-endpoints")).json<{
      endpoints: Record<string, unknown>[];
    }>();
    expect(list.endpoints).toHaveLength(1);
    expect(list.endpoints[0]).not.toHaveProperty("secret");
    expect(await (await hookCall(key, "GET", `/webhook-endpoints/${created.id}`)).json()).toEqual(list.endpoints[0]);

    const patched = await hookCall(key, "PATCH", `/webhook-endpoints/${created.id}`, {
      status: "disabled",
      events: ["webhook.test"],
    });
    expect(await patched.json()).toMatchObject({ status: "disabled", events: ["webhook.test"], disabledReason: null });

    expect((await hookCall(key, "DELETE", `/webhook-endpoints/${created.id}`)).status).toBe(204);
    await expectProblem(await hookCall(key, "GET", `/webhook-endpoints/${created.id}`), 404, "not_found");
  });

  it("refuse an unknown event, a URL a submit's webhookUrl could not have, and more than the limit", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    await expectProblem(
      await hookCall(key, "POST", "/webhook-endpoints", { url: "https://hooks.test/x", events: ["batch.exploded"] }),
      400,
      "invalid_request",
    );
    // budget.threshold is sent since issue 50: an endpoint may subscribe to it.
    expect(
      (
        await hookCall(key, "POST", "/webhook-endpoints", {
          url: "https://budget.test/x",
          events: ["budget.threshold"],
        })
      ).status,
    ).toBe(201);
    const badUrl = await hookCall(key, "POST", "/webhook-endpoints", {
      url: "https://10.0.0.1/x",
      events: ["batch.completed"],
    });
    const problem = await expectProblem(badUrl, 400, "invalid_request");
    expect(problem.errors).toEqual([{ path: "url", message: expect.stringContaining("private") }]);
    const { key: liveKey } = await createKey({ environment: "live", rateLimits: hookLimits });
    const loopback = await request("/v2/live/webhook-endpoints", {
      method: "POST",
      key: liveKey,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:9999/x", events: ["batch.completed"] }),
    });
    await expectProblem(loopback, 400, "invalid_request");

    // The budget.threshold endpoint above is one of them.
    for (let n = 1; n < MAX_ENDPOINTS; n++)
      await createEndpoint(key, { url: `https://hooks.test/n${n}`, events: ["webhook.test"] });
    await expectProblem(
      await hookCall(key, "POST", "/webhook-endpoints", { url: "https://hooks.test/over", events: ["webhook.test"] }),
      409,
      "too_many_webhook_endpoints",
    );
  });

  it("send webhook.test now, signed so that standardwebhooks verifies it, and log it", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const path = receiverPath("ok");
    const endpoint = await createEndpoint(key, { url: `https://hooks.test${path}`, events: ["batch.completed"] });
    const test = await hookCall(key, "POST", `/webhook-endpoints/${endpoint.id}/test`);
    expect(test.status).toBe(202);
    const delivery = await test.json<{ id: string; type: string }>();
    expect(delivery).toMatchObject({ type: "webhook.test", endpointId: endpoint.id });

    const [received] = await until(() => receivedAt(path), {
      what: "the test event",
      done: (list) => list.length === 1,
    });
    expect(received!.headers["webhook-id"]).toBe(delivery.id);
    expect(new Webhook(endpoint.secret).verify(received!.body, received!.headers)).toMatchObject({
      type: "webhook.test",
      data: { endpointId: endpoint.id },
    });
    const log = await until(() => deliveryLog(key), {
      what: "the delivery succeeded",
      done: (page) => page.deliveries[0]?.status === "succeeded",
    });
    expect(log.deliveries).toEqual([
      expect.objectContaining({
        id: delivery.id,
        status: "succeeded",
        attempts: [expect.objectContaining({ statusCode: 204, error: null })],
      }),
    ]);
    const detail = await (await hookCall(key, "GET", `/webhook-deliveries/${delivery.id}`)).json<{ payload: string }>();
    expect(detail.payload).toBe(received!.body);
  });

  it("retry a failed delivery by the hub's alarm, with the same webhook-id, and log each attempt", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const path = receiverPath("fail-once");
    const endpoint = await createEndpoint(key, { url: `https://hooks.test${path}`, events: ["webhook.test"] });
    const { id } = await (await hookCall(key, "POST", `/webhook-endpoints/${endpoint.id}/test`)).json<{ id: string }>();
    const log = await until(() => deliveryLog(key), {
      what: "the delivery succeeded on its second attempt",
      done: (page) => page.deliveries[0]?.status === "succeeded",
    });
    expect(log.deliveries[0]!.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 204]);
    const received = await receivedAt(path);
    expect(received.map((delivery) => delivery.headers["webhook-id"])).toEqual([id, id]);
  });

  it("are another customer's 404, endpoints and deliveries alike", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const { key: other } = await createKey({ rateLimits: hookLimits });
    const endpoint = await createEndpoint(key, { url: "https://hooks.test/mine", events: ["webhook.test"] });
    const { id } = await (await hookCall(key, "POST", `/webhook-endpoints/${endpoint.id}/test`)).json<{ id: string }>();
    for (const [method, path] of [
      ["GET", `/webhook-endpoints/${endpoint.id}`],
      ["PATCH", `/webhook-endpoints/${endpoint.id}`],
      ["DELETE", `/webhook-endpoints/${endpoint.id}`],
      ["POST", `/webhook-endpoints/${endpoint.id}/test`],
      ["POST", `/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ["GET", `/webhook-deliveries/${id}`],
      ["POST", `/webhook-deliveries/${id}/redeliver`],
    ] as const) {
      await expectProblem(
        await hookCall(other, method, path, method === "PATCH" ? { status: "disabled" } : undefined),
        404,
        "not_found",
      );
    }
    expect((await deliveryLog(other)).deliveries).toEqual([]);
    expect((await hookCall(other, "GET", "/webhook-endpoints")).status).toBe(200);
  });
});
