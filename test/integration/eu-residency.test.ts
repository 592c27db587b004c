import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/stub";
import { localName } from "../../src/base/placement";
import { type Tenant, tenantName } from "../../src/base/tenant";
import { batchStub } from "../../src/batch/stub";
import { limiterStub } from "../../src/rate-limit/stub";
import { webhookSender } from "../../src/webhooks/webhook-sender";
import { createKey, faultyItemQueue, request, sentItems, submitBatch, until, waitForCompletion } from "../helpers";

// A customer created with --jurisdiction eu. Workerd has no jurisdictions (it throws
// "Jurisdiction restrictions are not implemented in workerd"), so an id's `jurisdiction`
// reads "eu" only on Cloudflare; here the EU object is the one named apart (placement.ts),
// and each check accepts either, then proves the unrestricted object of the same name unused.
type Stub = { id: DurableObjectId };

function expectInEu(stub: Stub, unrestricted: Stub, name: string) {
  if (stub.id.jurisdiction !== undefined) expect(stub.id.jurisdiction).toBe("eu");
  else expect(stub.id.name).toBe(localName(name, "eu"));
  expect(stub.id.equals(unrestricted.id)).toBe(false);
}

const someone = () => ({
  firstName: "Erin",
  lastName: `Eu${crypto.randomUUID().slice(0, 8)}`,
  companyDomain: "erasure.example",
});
const batches = "/v2/live/person/contact-info";

describe("an EU customer", () => {
  afterEach(() => vi.restoreAllMocks());

  it("has its batch, account, limiter, Idempotency-Keys and webhook sender created in the EU, and only there", async () => {
    const { key, record } = await createKey({ environment: "live", jurisdiction: "eu" });
    const tenant: Tenant = { customerId: record.customerId, environment: "live", jurisdiction: "eu" };
    const response = await request(batches, {
      method: "POST",
      key,
      headers: { "content-type": "application/json", "idempotency-key": "eu-1" },
      body: JSON.stringify({
        items: [someone()],
        webhookUrl: `https://eu.hooks.example.com/eu/${crypto.randomUUID()}`,
      }),
    });
    expect(response.status).toBe(202);
    const { batchId } = await response.json<{ batchId: string }>();
    expect(batchId).toMatch(/^eu-[0-9a-f-]{36}$/);
    const status = await waitForCompletion(key, batchId);
    expect(status.items[0]).toMatchObject({ outcome: "found", fromCache: false });
    await until(async () => (await waitForCompletion(key, batchId)).webhook?.state, {
      what: "the webhook delivered",
      done: (s) => s === "delivered",
    });

    const name = tenantName(tenant);
    expectInEu(batchStub(env, batchId), env.BATCHES.getByName(batchId), batchId);
    expectInEu(webhookSender(env, batchId), env.WEBHOOK_SENDERS.getByName(batchId), batchId);
    expectInEu(accountStub(env, tenant), env.ACCOUNTS.getByName(name), name);
    expectInEu(limiterStub(env, tenant), env.RATE_LIMITER.getByName(name), name);
    // The Idempotency-Keys are kept by the limiter (rate-limiter.ts).

    // What the requests stored is in the EU objects, and none of it in those of the same name outside.
    expect(await env.BATCHES.getByName(batchId).exists()).toBe(false);
    await until(
      async () => (await accountStub(env, tenant).list({ limit: 10, after: null })).batches.map(({ id }) => id),
      {
        what: "the batch listed",
        done: (ids) => ids.includes(batchId),
      },
    );
    expect((await env.ACCOUNTS.getByName(name).list({ limit: 10, after: null })).batches).toEqual([]);
    const hits = (stub: DurableObjectStub) =>
      runInDurableObject(
        stub,
        (_, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM hits").one().n,
      );
    expect(await hits(limiterStub(env, tenant))).toBeGreaterThan(0);
    expect(await hits(env.RATE_LIMITER.getByName(name))).toBe(0);
    const records = (stub: DurableObjectStub) =>
      runInDurableObject(
        stub,
        (_, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM idempotency_records").one().n,
      );
    expect(await records(limiterStub(env, tenant))).toBe(1);
    expect(await records(env.RATE_LIMITER.getByName(name))).toBe(0);
  });

  it("reads, lists and deletes its batch through the API; another customer's key finds nothing", async () => {
    const { key } = await createKey({ environment: "live", jurisdiction: "eu" });
    const batchId = await submitBatch(key, { items: [someone()] }, "live");
    await waitForCompletion(key, batchId);
    expect((await request(`${batches}/${batchId.toUpperCase()}`, { key })).status).toBe(200);
    const listed = await until(
      async () => (await (await request(batches, { key })).json<{ batches: { id: string }[] }>()).batches,
      {
        what: "the batch in the list",
        done: (list) => list.some(({ id }) => id === batchId),
      },
    );
    expect(listed.map(({ id }) => id)).toEqual([batchId]);

    const stranger = await createKey({ environment: "live" });
    expect((await request(`${batches}/${batchId}`, { key: stranger.key })).status).toBe(404);
    expect((await request(`${batches}/${batchId}`, { method: "DELETE", key: stranger.key })).status).toBe(404);

    expect((await request(`${batches}/${batchId}`, { method: "DELETE", key })).status).toBe(204);
    expect((await request(`${batches}/${batchId}`, { key })).status).toBe(410);
    expect((await (await request(batches, { key })).json<{ batches: unknown[] }>()).batches).toEqual([]);
  });

  it("writes no result or verdict to the global KV cache, and reads none", async () => {
    const person = someone();
    const eu = await createKey({ environment: "live", jurisdiction: "eu" });
    const first = await waitForCompletion(eu.key, await submitBatch(eu.key, { items: [person] }, "live"));
    expect(first.items[0]).toMatchObject({ outcome: "found", fromCache: false });
    const again = await waitForCompletion(eu.key, await submitBatch(eu.key, { items: [person] }, "live"));
    expect(again.items[0]).toMatchObject({ outcome: "found", fromCache: false });
    const customer = encodeURIComponent(eu.record.customerId);
    for (const prefix of [`result:live:${customer}:`, `verdict:live:${customer}:`])
      expect((await env.RESULT_CACHE.list({ prefix })).keys, prefix).toEqual([]);

    // The same person for a customer without a jurisdiction is cached: the check above can fail.
    const global = await createKey({ environment: "live" });
    await waitForCompletion(global.key, await submitBatch(global.key, { items: [person] }, "live"));
    const cached = await env.RESULT_CACHE.list({
      prefix: `result:live:${encodeURIComponent(global.record.customerId)}:`,
    });
    expect(cached.keys).toHaveLength(1);
  });

  it("sends indexes only through the queue, not even the people's hashes, and still never looks up a suppressed person", async () => {
    const eu = await createKey({ environment: "live", jurisdiction: "eu" });
    const [suppressed, other] = [someone(), someone()];
    const put = await request("/v2/live/privacy/suppressions", {
      method: "PUT",
      key: eu.key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ items: [suppressed] }),
    });
    expect(put.status).toBe(200);
    const queue = faultyItemQueue((real, messages) => real(messages));
    const batchId = await submitBatch(eu.key, { items: [suppressed, other] }, "live");
    const batch = await waitForCompletion(eu.key, batchId);
    expect(sentItems(queue.mock.calls).filter((item) => item.batchId === batchId)).toEqual([
      { batchId, environment: "live", fields: ["email", "phone"], index: 0 },
      { batchId, environment: "live", fields: ["email", "phone"], index: 1 },
    ]);
    // The consumer read the people, and their hashes, from the batch itself.
    expect(batch.items[0]).toMatchObject({ status: "failed", error: { code: "suppressed" }, sources: [], credits: 0 });
    expect(batch.items[1]).toMatchObject({ status: "completed", outcome: "found" });
  });
});
