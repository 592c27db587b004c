import { evictDurableObject, listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createKey, expectProblem, getStatus, person, request, submit, submitBatch } from "../helpers";

const limits = { limit: 1000, windowSeconds: 60 };
const ALL_DEFAULT = { contact_info_request: limits, contact_info_status: limits, rate_limits: limits };

type Introspection = { endpointType: string; limit: number; windowSeconds: number; used: number; remaining: number; resetSeconds: number }[];

const readLimits = async (key: string, environment: "test" | "live" = "test") =>
  (await request(`/v2/${environment}/me/rate-limits`, { key })).json<Introspection>();

describe("rate limiting", () => {
  it("lets exactly `limit` of a concurrent burst through", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_request: { limit: 50, windowSeconds: 60 } } });
    const responses = await Promise.all(Array.from({ length: 60 }, () => submit(key, { items: [person()] })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it("sends the RateLimit fields on every answer to an authenticated request", async () => {
    const { key } = await createKey();
    const submitted = await submit(key, { items: [person()] });
    expect(submitted.headers.get("ratelimit-policy")).toBe('"contact_info_request";q=50;w=60');
    expect(submitted.headers.get("ratelimit")).toBe('"contact_info_request";r=49;t=60');

    const batchId = (await submitted.json<{ batchId: string }>()).batchId;
    const status = await request(`/v2/test/person/contact-info/${batchId}`, { key });
    expect(status.headers.get("ratelimit-policy")).toBe('"contact_info_status";q=100;w=60');
    expect(status.headers.get("ratelimit")).toBe('"contact_info_status";r=99;t=60');

    // Errors count and carry the fields too.
    const missing = await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("ratelimit")).toBe('"contact_info_status";r=98;t=60');
    const invalid = await submit(key, "not json");
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("ratelimit")).toMatch(/^"contact_info_request";r=48;t=\d+$/);
  });

  it("answers over the limit with 429 rate_limited, Retry-After and the limit in the body", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_request: { limit: 2, windowSeconds: 30 } } });
    await submit(key, { items: [person()] });
    await submit(key, { items: [person()] });
    const response = await submit(key, { items: [person()] });
    const body = await expectProblem(response, 429, "rate_limited");
    expect(body).toMatchObject({ endpointType: "contact_info_request", limit: 2, windowSeconds: 30 });
    const retryAfter = Number(response.headers.get("retry-after"));
    const t = Number(/;t=(\d+)/.exec(response.headers.get("ratelimit")!)![1]);
    expect(retryAfter).toBeGreaterThanOrEqual(t);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(response.headers.get("ratelimit")).toMatch(/^"contact_info_request";r=0;t=\d+$/);
    expect(response.headers.get("ratelimit-policy")).toBe('"contact_info_request";q=2;w=30');
  });

  it("creates no batch for a rejected submit", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_request: { limit: 1, windowSeconds: 60 } } });
    await submitBatch(key, { items: [person()] });
    const before = (await listDurableObjectIds(env.BATCHES)).length;
    expect((await submit(key, { items: [person()] })).status).toBe(429);
    expect((await listDurableObjectIds(env.BATCHES)).length).toBe(before);
  });

  it("replaces a read over the limit with a 429", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 2, windowSeconds: 60 } } });
    const batchId = await submitBatch(key, { items: [person()] });
    await getStatus(key, batchId);
    await getStatus(key, batchId);
    const response = await request(`/v2/test/person/contact-info/${batchId}`, { key });
    await expectProblem(response, 429, "rate_limited");
  });

  it("counts each key on its own, so test traffic never eats live quota", async () => {
    const customerId = `cus_${crypto.randomUUID()}`;
    const tight = { contact_info_request: { limit: 1, windowSeconds: 60 } };
    const test = await createKey({ customerId, environment: "test", rateLimits: tight });
    const live = await createKey({ customerId, environment: "live", rateLimits: tight });
    const otherTest = await createKey({ customerId, environment: "test", rateLimits: tight });
    expect((await submit(test.key, { items: [person()] })).status).toBe(202);
    expect((await submit(test.key, { items: [person()] })).status).toBe(429);
    expect((await submit(live.key, { items: [person()] }, "live")).status).toBe(202);
    expect((await submit(otherTest.key, { items: [person()] })).status).toBe(202);
  });

  it("keeps its counts when the limiter object is evicted", async () => {
    const { key, record } = await createKey({ rateLimits: { contact_info_request: { limit: 2, windowSeconds: 60 } } });
    await submit(key, { items: [person()] });
    await evictDurableObject(env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(record.keyId)));
    await submit(key, { items: [person()] });
    expect((await submit(key, { items: [person()] })).status).toBe(429);
  });

  it("frees the window as time passes (injected clock)", async () => {
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.newUniqueId());
    const tight = { ...ALL_DEFAULT, contact_info_status: { limit: 2, windowSeconds: 60 } };
    const t0 = 1_700_000_000_000;
    expect((await limiter.consume("contact_info_status", tight, t0)).decision.allowed).toBe(true);
    expect((await limiter.consume("contact_info_status", tight, t0 + 30_000)).decision.allowed).toBe(true);
    const denied = (await limiter.consume("contact_info_status", tight, t0 + 59_000)).decision;
    expect(denied).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect((await limiter.consume("contact_info_status", tight, t0 + 60_000)).decision.allowed).toBe(true);
    const later = await limiter.consume("contact_info_status", tight, t0 + 200_000);
    expect(later.decision).toMatchObject({ allowed: true, used: 1, remaining: 1 });
  });
});

describe("GET /v2/{environment}/me/rate-limits", () => {
  it("reports what the key has used, itself included", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person()] });
    await getStatus(key, batchId);
    await getStatus(key, batchId);
    await readLimits(key);
    const report = await readLimits(key);
    expect(report.map(({ endpointType, used, remaining, limit }) => ({ endpointType, used, remaining, limit }))).toEqual([
      { endpointType: "contact_info_request", used: 1, remaining: 49, limit: 50 },
      { endpointType: "contact_info_status", used: 2, remaining: 98, limit: 100 },
      { endpointType: "rate_limits", used: 2, remaining: 98, limit: 100 },
    ]);
    for (const entry of report) {
      expect(entry.resetSeconds).toBeGreaterThan(0);
      expect(entry.resetSeconds).toBeLessThanOrEqual(entry.windowSeconds);
    }
  });

  it("reports zero usage and no reset time for untouched endpoint types", async () => {
    const { key } = await createKey({ environment: "live" });
    const report = await readLimits(key, "live");
    expect(report[0]).toMatchObject({ endpointType: "contact_info_request", used: 0, remaining: 50, resetSeconds: 0 });
  });

  it("applies a limit stored on the key's KV record", async () => {
    const { key } = await createKey({ rateLimits: { rate_limits: { limit: 2, windowSeconds: 10 } } });
    expect((await readLimits(key))[2]).toMatchObject({ endpointType: "rate_limits", limit: 2, windowSeconds: 10, used: 1, remaining: 1 });
    await readLimits(key);
    await expectProblem(await request("/v2/test/me/rate-limits", { key }), 429, "rate_limited");
  });
});
