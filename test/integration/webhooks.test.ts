import { createMessageBatch, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { batchStub } from "../../src/batch/stub";
import { deliverWebhooks } from "../../src/queue/webhook-consumer";
import type { WebhookMessage } from "../../src/queue-messages/webhook-message";
import { createKey, envWith, expectProblem, getStatus, person, submit, submitBatch, until } from "../helpers";

type Delivery = { headers: Record<string, string>; body: string };
const deliveriesTo = async (path: string) => (await fetch(`https://hooks.test/__deliveries${path}`)).json<Delivery[]>();

/** The batch's status once its webhook is delivered or has failed for good. */
function webhookSettled(key: string, batchId: string, timeoutMs = 15_000) {
  return until(() => getStatus(key, batchId, "?limit=1"), {
    what: `batch ${batchId}'s webhook delivered or failed`,
    done: (status) => status.webhook?.state === "delivered" || status.webhook?.state === "failed",
    timeoutMs,
  });
}

const unique = (prefix: string) => `/${prefix}/${crypto.randomUUID()}`;

describe("batch.completed webhooks", () => {
  it("are signed per Standard Webhooks: the reference implementation verifies them, and refuses a changed body", async () => {
    const { key, record } = await createKey({
      rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } },
    });
    const path = unique("ok");
    const batchId = await submitBatch(key, { items: [person(), { bad: 1 }], webhookUrl: `https://hooks.test${path}` });
    const status = await webhookSettled(key, batchId);
    expect(status.webhook).toEqual({
      url: `https://hooks.test${path}`,
      state: "delivered",
      attempts: 1,
      lastStatus: 204,
      refused: null,
    });

    const deliveries = await deliveriesTo(path);
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries as [Delivery];
    const receiver = new Webhook(record.webhookSecret!);
    const event = receiver.verify(delivery.body, delivery.headers);
    expect(() => receiver.verify(delivery.body.replace("completed", "pending"), delivery.headers)).toThrow(
      WebhookVerificationError,
    );
    expect(delivery.headers["webhook-id"]).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(event).toEqual({
      type: "batch.completed",
      timestamp: status.completedAt,
      data: {
        id: batchId,
        environment: "test",
        status: "completed",
        totalItems: 2,
        completedItems: 1,
        failedItems: 1,
        createdAt: status.createdAt,
        completedAt: status.completedAt,
        creditsCharged: status.creditsCharged,
        maxCredits: null,
        statusUrl: `https://api.test/v2/test/person/contact-info/${batchId}`,
      },
    });
    expect(status.creditsCharged).toBeGreaterThan(0);
  });

  it("are retried after a 500, with the same webhook-id, until delivered", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
    const path = unique("fail-once");
    const batchId = await submitBatch(key, { items: [person()], webhookUrl: `https://hooks.test${path}` });
    const status = await webhookSettled(key, batchId);
    expect(status.webhook).toMatchObject({ state: "delivered", attempts: 2, lastStatus: 204 });
    const deliveries = await deliveriesTo(path);
    expect(deliveries).toHaveLength(2);
    expect(deliveries[1]!.headers["webhook-id"]).toBe(deliveries[0]!.headers["webhook-id"]);
  });

  it("give up after WEBHOOK_MAX_ATTEMPTS and show it", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
    const path = unique("always-500");
    const batchId = await submitBatch(key, { items: [person()], webhookUrl: `https://hooks.test${path}` });
    expect((await webhookSettled(key, batchId)).webhook).toMatchObject({
      state: "failed",
      attempts: 3,
      lastStatus: 500,
    });
  });

  it("count a timeout as a failed attempt", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
    const path = unique("slow");
    const batchId = await submitBatch(key, { items: [person()], webhookUrl: `https://hooks.test${path}` });
    expect((await webhookSettled(key, batchId)).webhook).toMatchObject({
      state: "failed",
      attempts: 3,
      lastStatus: null,
    });
  });

  it("never follow a redirect", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
    const path = unique("redirect");
    const batchId = await submitBatch(key, { items: [person()], webhookUrl: `https://hooks.test${path}` });
    expect((await webhookSettled(key, batchId)).webhook).toMatchObject({
      state: "failed",
      attempts: 3,
      lastStatus: 307,
    });
    expect(await deliveriesTo(path)).toHaveLength(3);
  });

  it("may target http://127.0.0.1 in test, for local development", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
    const batchId = await submitBatch(key, { items: [person()], webhookUrl: "http://127.0.0.1:9999/ok/local" });
    expect((await webhookSettled(key, batchId)).webhook).toEqual({
      url: "http://127.0.0.1:9999/ok/local",
      state: "delivered",
      attempts: 1,
      lastStatus: 204,
      refused: null,
    });
  });

  it("are absent from the status when none was asked for", async () => {
    const { key } = await createKey();
    expect((await getStatus(key, await submitBatch(key, { items: [person()] }))).webhook).toBeNull();
  });
});

/** A completed batch whose webhook was delivered, put back to `queued` for a new receiver. */
async function queuedWebhook(key: string, url: string): Promise<string> {
  const batchId = await submitBatch(key, { items: [person()], webhookUrl: `https://hooks.test${unique("ok")}` });
  await webhookSettled(key, batchId);
  await runInDurableObject(batchStub(env, batchId), (_batch, state) => {
    state.storage.sql.exec("UPDATE batch SET webhook_state = 'queued', webhook_url = ?", url);
  });
  return batchId;
}

/** One consumer invocation, as the queue makes it: the queue waits for it before handing over the next batch. */
async function consume(batchId: string, consumerEnv: Env) {
  const batch = createMessageBatch<WebhookMessage>("contact-info-webhooks", [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { batchId } },
  ]);
  await deliverWebhooks(batch.messages, consumerEnv);
}

describe("webhook delivery fairness", () => {
  it("a fast receiver's delivery does not wait for another customer's slow receiver", async () => {
    const slowCustomer = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
    const fastCustomer = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
    const slowPath = unique("held");
    const fastPath = unique("ok");
    const slowBatch = await queuedWebhook(slowCustomer.key, `https://hooks.test${slowPath}`);
    const fastBatch = await queuedWebhook(fastCustomer.key, `https://hooks.test${fastPath}`);

    // The slow receiver answers only when released below, after the fast delivery. With the
    // consumer's timeout that long, a consumer that waited on a receiver would never return:
    // ordered by events, not by a clock.
    const consumerEnv = envWith({ WEBHOOK_TIMEOUT_MS: 600_000 });
    try {
      await consume(slowBatch, consumerEnv);
      await until(() => deliveriesTo(slowPath), { what: "the slow receiver reached", done: (got) => got.length > 0 });
      // The queue's next invocation: the fast customer's delivery is made while the slow receiver still holds.
      await consume(fastBatch, consumerEnv);
      await until(() => deliveriesTo(fastPath), { what: "the fast receiver reached", done: (got) => got.length > 0 });
      // queuedWebhook's first delivery counts as attempt 1.
      expect((await webhookSettled(fastCustomer.key, fastBatch)).webhook).toMatchObject({
        state: "delivered",
        attempts: 2,
        lastStatus: 204,
      });
      // Each batch's WebhookSender sends with the configured 500 ms timeout (not consumerEnv's),
      // so every attempt at the held receiver times out: 1 earlier delivery + 3.
      expect((await webhookSettled(slowCustomer.key, slowBatch)).webhook).toMatchObject({
        state: "failed",
        attempts: 4,
        lastStatus: null,
      });
      expect(await deliveriesTo(slowPath)).toHaveLength(3);
    } finally {
      await fetch(`https://hooks.test/__release${slowPath}`, { method: "POST" });
    }
  });
});

describe("webhook URLs", () => {
  it.each([
    ["http://hooks.example.com/x", "must use https"],
    ["https://127.0.0.1/x", "loopback, private"],
    ["https://10.0.0.8/x", "loopback, private"],
    ["https://172.20.1.1/x", "loopback, private"],
    ["https://192.168.1.10/x", "loopback, private"],
    ["https://169.254.169.254/latest/meta-data", "loopback, private"],
    ["https://[::1]/x", "loopback, private"],
    ["https://198.51.100.7/x", "loopback, private"],
    ["https://203.0.113.9/x", "loopback, private"],
    ["https://[2001:db8::1]/x", "loopback, private"],
    ["https://[64:ff9b::a9fe:a9fe]/x", "loopback, private"],
    ["https://[fd00::1]/x", "loopback, private"],
    ["https://[fe80::1]/x", "loopback, private"],
    ["https://[::ffff:10.0.0.1]/x", "loopback, private"],
    ["https://2130706433/x", "loopback, private"],
    ["https://localhost/x", "public host"],
    ["https://metadata.google.internal/x", "public host"],
    ["https://printer.local/x", "public host"],
    ["https://localhost./x", "public host"],
    ["https://localhost%2e/x", "public host"],
    ["https://metadata.google.internal./x", "public host"],
    ["https://printer.local./x", "public host"],
    ["https://hooks.example.com:0/x", "port 443"],
    ["https://hooks.example.com:22/x", "port 443"],
    ["https://user:pass@hooks.example.com/x", "credentials"],
    ["not a url", "absolute URL"],
  ])("refuses %s in live", async (webhookUrl, reason) => {
    const { key } = await createKey({ environment: "live" });
    const problem = await expectProblem(
      await submit(key, { items: [person()], webhookUrl }, "live"),
      400,
      "invalid_request",
    );
    expect(problem.errors).toEqual([{ path: "webhookUrl", message: expect.stringContaining(reason) }]);
  });

  it("accepts a public https URL in live", async () => {
    const { key } = await createKey({ environment: "live" });
    expect(
      (await submit(key, { items: [person()], webhookUrl: "https://live.hooks.example.com/ok/live" }, "live")).status,
    ).toBe(202);
  });

  // Public IPv6 literals are accepted too (test/unit/webhook-url.test.ts); no test submits one, so nothing is ever sent to one.
  it("accepts an unprivileged port in live", async () => {
    const { key } = await createKey({ environment: "live" });
    expect(
      (await submit(key, { items: [person()], webhookUrl: "https://live.hooks.example.com:8443/ok/live-port" }, "live"))
        .status,
    ).toBe(202);
  });

  it("refuses http://127.0.0.1 in live but takes it in test", async () => {
    const live = await createKey({ environment: "live" });
    await expectProblem(
      await submit(live.key, { items: [person()], webhookUrl: "http://127.0.0.1:8080/hook" }, "live"),
      400,
      "invalid_request",
    );
    const test = await createKey();
    expect((await submit(test.key, { items: [person()], webhookUrl: "http://localhost:8080/ok/x" })).status).toBe(202);
  });
});
