import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/stub";
import { readConfig } from "../../src/base/config";
import { batchStub } from "../../src/batch/stub";
import { readHubConfig } from "../../src/webhooks/hub-config";
import {
  createEndpoint,
  createKey,
  deliveryLog,
  expectProblem,
  hookCall,
  hookLimits,
  hubOfKey,
  person,
  receivedAt,
  receiverPath,
  sendTestEvent,
  setClockAhead,
  submitBatch,
  until,
  waitForCompletion,
} from "../helpers";

const { disableAfterSeconds, logRetentionSeconds, retryScheduleSeconds } = readHubConfig(env);
const ATTEMPTS = retryScheduleSeconds.length + 1;

afterEach(() => {
  vi.useRealTimers();
});

const settled = (key: string, query = "") =>
  until(() => deliveryLog(key, query), {
    what: "every delivery settled",
    done: (page) => page.deliveries.length > 0 && page.deliveries.every((delivery) => delivery.status !== "pending"),
  });

describe("the delivery log", () => {
  it("shows each failed attempt, then the delivery failed, with no answer said as an error code", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const broken = await createEndpoint(key, {
      url: `https://hooks.test${receiverPath("always-500")}`,
      events: ["webhook.test"],
    });
    const redirect = await createEndpoint(key, {
      url: `https://hooks.test${receiverPath("redirect")}`,
      events: ["webhook.test"],
    });
    await sendTestEvent(key, broken.id);
    await sendTestEvent(key, redirect.id);
    const log = await settled(key);
    const byEndpoint = new Map(log.deliveries.map((delivery) => [delivery.endpointId, delivery]));
    expect(byEndpoint.get(broken.id)).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(byEndpoint.get(broken.id)!.attempts).toEqual(
      Array.from({ length: ATTEMPTS }, () => expect.objectContaining({ statusCode: 500, error: null })),
    );
    expect(byEndpoint.get(redirect.id)!.attempts[0]).toMatchObject({ statusCode: 307, error: "redirect" });
  });

  it("filters by endpoint, status and type, and pages with a cursor; a cursor it did not issue is a 400", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const one = await createEndpoint(key, { url: `https://hooks.test${receiverPath("ok")}`, events: ["webhook.test"] });
    const two = await createEndpoint(key, {
      url: `https://hooks.test${receiverPath("always-500")}`,
      events: ["webhook.test"],
    });
    const sent = [await sendTestEvent(key, one.id), await sendTestEvent(key, one.id), await sendTestEvent(key, two.id)];
    await settled(key);
    expect((await deliveryLog(key, `?endpointId=${one.id}`)).deliveries.map(({ id }) => id)).toEqual([
      sent[1],
      sent[0],
    ]);
    expect((await deliveryLog(key, "?status=failed")).deliveries.map(({ id }) => id)).toEqual([sent[2]]);
    expect((await deliveryLog(key, "?type=batch.completed")).deliveries).toEqual([]);
    const first = await deliveryLog(key, "?limit=2");
    const second = await deliveryLog(key, `?limit=2&cursor=${first.nextCursor}`);
    expect([...first.deliveries, ...second.deliveries].map(({ id }) => id)).toEqual([...sent].reverse());
    expect(second.nextCursor).toBeNull();
    await expectProblem(await hookCall(key, "GET", "/webhook-deliveries?cursor=bm9wZQ"), 400, "invalid_query");
    await expectProblem(await hookCall(key, "GET", "/webhook-deliveries?status=lost"), 400, "invalid_query");
  });

  it("forgets a delivery after WEBHOOK_LOG_RETENTION_SECONDS, by the hub's alarm", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const endpoint = await createEndpoint(key, {
      url: `https://hooks.test${receiverPath("ok")}`,
      events: ["webhook.test"],
    });
    const id = await sendTestEvent(key, endpoint.id);
    await settled(key);
    setClockAhead((logRetentionSeconds + 1) * 1000);
    expect(await runDurableObjectAlarm(hubOfKey(key))).toBe(true);
    expect((await deliveryLog(key)).deliveries).toEqual([]);
    await expectProblem(await hookCall(key, "GET", `/webhook-deliveries/${id}`), 404, "not_found");
  });
});

describe("redeliver and recover", () => {
  it("redeliver sends a delivery again now, whatever its status, with its webhook-id, signed afresh", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const path = receiverPath("ok");
    const endpoint = await createEndpoint(key, { url: `https://hooks.test${path}`, events: ["webhook.test"] });
    const id = await sendTestEvent(key, endpoint.id);
    await settled(key);
    expect((await hookCall(key, "POST", `/webhook-deliveries/${id}/redeliver`)).status).toBe(202);
    const received = await until(() => receivedAt(path), { what: "the redelivery", done: (list) => list.length === 2 });
    const receiver = new Webhook(endpoint.secret);
    for (const delivery of received) {
      expect(delivery.headers["webhook-id"]).toBe(id);
      expect(receiver.verify(delivery.body, delivery.headers)).toMatchObject({ type: "webhook.test" });
    }
    const log = await settled(key);
    expect(log.deliveries[0]!.attempts).toHaveLength(2);
    await expectProblem(await hookCall(key, "POST", "/webhook-deliveries/msg_nope/redeliver"), 404, "not_found");
  });

  it("recover re-sends each delivery since a time that has not succeeded, keeping their ids", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const since = new Date().toISOString();
    const endpoint = await createEndpoint(key, {
      url: `https://hooks.test${receiverPath("always-500")}`,
      events: ["webhook.test"],
    });
    const failed = [await sendTestEvent(key, endpoint.id), await sendTestEvent(key, endpoint.id)];
    await settled(key);
    const fixed = receiverPath("ok");
    await hookCall(key, "PATCH", `/webhook-endpoints/${endpoint.id}`, { url: `https://hooks.test${fixed}` });
    const recovered = await hookCall(key, "POST", `/webhook-endpoints/${endpoint.id}/recover`, { since });
    expect(recovered.status).toBe(202);
    expect(await recovered.json()).toEqual({ count: 2 });
    const received = await until(() => receivedAt(fixed), { what: "the recovered", done: (list) => list.length === 2 });
    expect(received.map((delivery) => delivery.headers["webhook-id"]).sort()).toEqual([...failed].sort());
    for (const delivery of received)
      expect(new Webhook(endpoint.secret).verify(delivery.body, delivery.headers)).toBeTruthy();
    const log = await settled(key);
    expect(log.deliveries.map(({ status }) => status)).toEqual(["succeeded", "succeeded"]);
    // Nothing left to recover: what succeeded is not sent again.
    expect(await (await hookCall(key, "POST", `/webhook-endpoints/${endpoint.id}/recover`, { since })).json()).toEqual({
      count: 0,
    });
    await expectProblem(
      await hookCall(key, "POST", `/webhook-endpoints/${endpoint.id}/recover`, { since: "yesterday" }),
      400,
      "invalid_request",
    );
  });
});

describe("secret rotation", () => {
  it("signs each delivery with both secrets for 24 hours: a receiver holding either verifies it", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const path = receiverPath("ok");
    const endpoint = await createEndpoint(key, { url: `https://hooks.test${path}`, events: ["webhook.test"] });
    const rotated = await hookCall(key, "POST", `/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const { secret } = await rotated.json<{ secret: string }>();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.secret);
    await sendTestEvent(key, endpoint.id);
    const [delivery] = await until(() => receivedAt(path), {
      what: "the test event",
      done: (list) => list.length === 1,
    });
    expect(delivery!.headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(secret).verify(delivery!.body, delivery!.headers)).toMatchObject({ type: "webhook.test" });
    expect(new Webhook(endpoint.secret).verify(delivery!.body, delivery!.headers)).toMatchObject({
      type: "webhook.test",
    });
  });
});

describe("an endpoint that fails everything", () => {
  it("is disabled after WEBHOOK_DISABLE_AFTER_SECONDS of failures, with the reason shown, and enabled again by PATCH", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const endpoint = await createEndpoint(key, {
      url: `https://hooks.test${receiverPath("always-500")}`,
      events: ["webhook.test"],
    });
    await sendTestEvent(key, endpoint.id);
    await settled(key);
    expect(await (await hookCall(key, "GET", `/webhook-endpoints/${endpoint.id}`)).json()).toMatchObject({
      status: "enabled",
    });

    setClockAhead((disableAfterSeconds + 1) * 1000);
    await sendTestEvent(key, endpoint.id);
    await runDurableObjectAlarm(hubOfKey(key));
    const disabled = await (await hookCall(key, "GET", `/webhook-endpoints/${endpoint.id}`)).json<{
      status: string;
      disabledReason: string;
    }>();
    expect(disabled.status).toBe("disabled");
    expect(disabled.disabledReason).toMatch(/^Every delivery failed since /);
    expect((await deliveryLog(key, "?status=pending")).deliveries).toEqual([]);

    const enabled = await hookCall(key, "PATCH", `/webhook-endpoints/${endpoint.id}`, { status: "enabled" });
    expect(await enabled.json()).toMatchObject({ status: "enabled", disabledReason: null });
  });
});

/** Every payload the key's hub stores, with the batch it names. */
const storedPayloads = (key: string) =>
  runInDurableObject(hubOfKey(key), (_, state) =>
    state.storage.sql
      .exec<{ batchId: string | null; payload: string }>("SELECT batch_id AS batchId, payload FROM deliveries")
      .toArray(),
  );

describe("the stored item.completed payloads", () => {
  it("lose an erased person's data, keep the others', and go with their batch", async () => {
    const owner = await createKey({ rateLimits: hookLimits });
    const { key } = owner;
    const tag = crypto.randomUUID().slice(0, 8);
    const erased = person({ firstName: "Erin", lastName: `Hub${tag}`, externalId: `crm-${tag}` });
    const kept = person({ firstName: "Kim", lastName: `Kept${tag}` });
    const path = receiverPath("ok");
    await createEndpoint(key, { url: `https://hooks.test${path}`, events: ["item.completed"] });
    const batchId = await submitBatch(key, { items: [erased, kept] });
    const status = await waitForCompletion(key, batchId);
    const found = status.items.flatMap((item) => [...item.emails, ...item.phones].map(String));
    expect(found.length).toBeGreaterThan(0);
    await until(() => receivedAt(path), { what: "the items delivered", done: (list) => list.length > 0 });
    const before = JSON.stringify(await storedPayloads(key));
    expect(before).toContain(`Hub${tag}`);
    await until(
      () =>
        runInDurableObject(
          accountStub(env, { customerId: owner.record.customerId, environment: "test" }),
          (_, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM person_index").one().n,
        ),
      { what: "the batch in the person index", done: (n) => n > 0 },
    );

    const erasure = await hookCall(key, "POST", "/privacy/erasures", {
      firstName: "Erin",
      lastName: `Hub${tag}`,
      companyDomain: erased.companyDomain,
      suppress: false,
    });
    expect(erasure.status).toBe(200);
    const after = JSON.stringify(await storedPayloads(key));
    expect(after).toContain(`Kept${tag}`);
    expect(after).not.toMatch(new RegExp(`Hub${tag}|crm-${tag}`, "i"));
    const erasedFound = status.items.find((item) => item.index === 0)!;
    for (const value of [...erasedFound.emails, ...erasedFound.phones].map(String)) expect(after).not.toContain(value);
    const [logged] = (await deliveryLog(key, "?type=item.completed")).deliveries;
    const shown = await (await hookCall(key, "GET", `/webhook-deliveries/${logged!.id}`)).json<{ payload: string }>();
    expect(JSON.parse(shown.payload).data.items).toContainEqual(
      expect.objectContaining({
        index: 0,
        input: {},
        emails: [],
        phones: [],
        externalId: null,
        erasedAt: expect.any(String),
      }),
    );

    expect((await hookCall(key, "DELETE", `/person/contact-info/${batchId}`)).status).toBe(204);
    expect((await storedPayloads(key)).filter((row) => row.batchId === batchId)).toEqual([]);
    expect((await deliveryLog(key, "?type=item.completed")).deliveries).toEqual([]);
  });

  it("go when their batch's retention ends, before the log's own", async () => {
    const { key } = await createKey({ rateLimits: hookLimits });
    const path = receiverPath("ok");
    await createEndpoint(key, { url: `https://hooks.test${path}`, events: ["item.completed"] });
    const batchId = await submitBatch(key, { items: [person()] });
    await waitForCompletion(key, batchId);
    await until(() => receivedAt(path), { what: "the item delivered", done: (list) => list.length === 1 });
    const ofBatch = async () => (await storedPayloads(key)).filter((row) => row.batchId === batchId);
    expect(await ofBatch()).toHaveLength(1);

    setClockAhead(readConfig(env).retentionSeconds * 1000 + 1000);
    await until(
      async () => {
        await runDurableObjectAlarm(batchStub(env, batchId));
        return ofBatch();
      },
      { what: "the batch's payloads gone with its items", done: (rows) => rows.length === 0 },
    );
  });
});
