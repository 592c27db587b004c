import { evictDurableObject, listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { parseList } from "structured-headers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { kvKey } from "../../src/keys/api-key";
import { limiterStub } from "../../src/rate-limit/stub";
import { createKey, expectProblem, getStatus, person, request, submit, submitBatch } from "../helpers";

afterEach(() => {
  vi.useRealTimers();
});

/** The RateLimit and RateLimit-Policy fields of a response, read by a structured-fields parser. */
function rateLimitFields(response: Response) {
  const read = (name: string) => {
    const list = parseList(response.headers.get(name) ?? "");
    expect(list).toHaveLength(1);
    const [policy, parameters] = list[0]!;
    return { policy, ...Object.fromEntries(parameters as Map<string, unknown>) };
  };
  return { policy: read("ratelimit-policy"), limit: read("ratelimit") };
}

/** A status read of a batch that does not exist: counted as contact_info_status, and cheap. */
const readUnknownBatch = (key: string, environment = "test") =>
  request(`/v2/${environment}/person/contact-info/${crypto.randomUUID()}`, { key });

type Introspection = {
  endpointType: string;
  limit: number;
  windowSeconds: number;
  used: number;
  remaining: number;
  resetSeconds: number;
}[];

const readLimits = async (key: string, environment: "test" | "live" = "test") =>
  (await request(`/v2/${environment}/me/rate-limits`, { key })).json<Introspection>();

describe("rate limit enforcement", () => {
  it("lets exactly `limit` of a concurrent burst through", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_request: { limit: 50, windowSeconds: 60 } } });
    const responses = await Promise.all(Array.from({ length: 60 }, () => submit(key, { items: [person()] })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
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
    await expectProblem(await request(`/v2/test/person/contact-info/${batchId}`, { key }), 429, "rate_limited");
  });

  it("frees the window as time passes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 2, windowSeconds: 60 } } });
    expect((await readUnknownBatch(key)).status).toBe(404);
    vi.setSystemTime(t0 + 30_000);
    expect((await readUnknownBatch(key)).status).toBe(404);
    vi.setSystemTime(t0 + 59_000);
    const refused = await readUnknownBatch(key);
    await expectProblem(refused, 429, "rate_limited");
    expect(refused.headers.get("retry-after")).toBe("1");
    vi.setSystemTime(t0 + 60_000);
    expect((await readUnknownBatch(key)).status).toBe(404);
    vi.setSystemTime(t0 + 200_000);
    expect(rateLimitFields(await readUnknownBatch(key)).limit).toEqual({ policy: "contact_info_status", r: 1, t: 60 });
  });

  it("keeps its counts when the limiter object is evicted", async () => {
    const { key, record } = await createKey({ rateLimits: { contact_info_request: { limit: 2, windowSeconds: 60 } } });
    await submit(key, { items: [person()] });
    await evictDurableObject(limiterStub(env, record));
    await submit(key, { items: [person()] });
    expect((await submit(key, { items: [person()] })).status).toBe(429);
  });
});

describe("one budget per customer and environment", () => {
  const tight = { contact_info_status: { limit: 2, windowSeconds: 60 } };

  it("is shared by every key of the customer in that environment", async () => {
    const customerId = `cus_${crypto.randomUUID()}`;
    const first = await createKey({ customerId, rateLimits: tight });
    const second = await createKey({ customerId, rateLimits: tight });
    expect((await readUnknownBatch(first.key)).status).toBe(404);
    expect(rateLimitFields(await readUnknownBatch(second.key)).limit).toEqual({
      policy: "contact_info_status",
      r: 0,
      t: 60,
    });
    await expectProblem(await readUnknownBatch(first.key), 429, "rate_limited");
    await expectProblem(await readUnknownBatch(second.key), 429, "rate_limited");
  });

  it("is not shared with the same customer's other environment, nor with other customers", async () => {
    const customerId = `cus_${crypto.randomUUID()}`;
    const test = await createKey({ customerId, environment: "test", rateLimits: tight });
    const live = await createKey({ customerId, environment: "live", rateLimits: tight });
    const otherCustomer = await createKey({ environment: "test", rateLimits: tight });
    await readUnknownBatch(test.key);
    await readUnknownBatch(test.key);
    await expectProblem(await readUnknownBatch(test.key), 429, "rate_limited");
    expect(rateLimitFields(await readUnknownBatch(live.key, "live")).limit).toMatchObject({ r: 1 });
    expect(rateLimitFields(await readUnknownBatch(otherCustomer.key)).limit).toMatchObject({ r: 1 });
  });
});

describe("RateLimit fields and 429 answers", () => {
  it("are sent on every answer to an authenticated request", async () => {
    const { key } = await createKey();
    const submitted = await submit(key, { items: [person()] });
    expect(rateLimitFields(submitted)).toEqual({
      policy: { policy: "contact_info_request", q: 50, w: 60 },
      limit: { policy: "contact_info_request", r: 49, t: 60 },
    });

    const batchId = (await submitted.json<{ batchId: string }>()).batchId;
    const status = await request(`/v2/test/person/contact-info/${batchId}`, { key });
    expect(rateLimitFields(status)).toEqual({
      policy: { policy: "contact_info_status", q: 100, w: 60 },
      limit: { policy: "contact_info_status", r: 99, t: 60 },
    });

    // Errors count and carry the fields too.
    const missing = await readUnknownBatch(key);
    expect(missing.status).toBe(404);
    expect(rateLimitFields(missing).limit).toMatchObject({ policy: "contact_info_status", r: 98 });
    const invalid = await submit(key, "not json");
    expect(invalid.status).toBe(400);
    expect(rateLimitFields(invalid).limit).toMatchObject({ policy: "contact_info_request", r: 48 });
  });

  it("answer over the limit with 429 rate_limited, Retry-After equal to t and the limit in the body", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 2, windowSeconds: 30 } } });
    await readUnknownBatch(key);
    vi.setSystemTime(t0 + 4_000);
    await readUnknownBatch(key);
    vi.setSystemTime(t0 + 10_000);
    const response = await readUnknownBatch(key);
    const body = await expectProblem(response, 429, "rate_limited");
    expect(body).toMatchObject({
      endpointType: "contact_info_status",
      limit: 2,
      windowSeconds: 30,
      retryAfterSeconds: 20,
    });
    expect(response.headers.get("retry-after")).toBe("20");
    expect(rateLimitFields(response)).toEqual({
      policy: { policy: "contact_info_status", q: 2, w: 30 },
      limit: { policy: "contact_info_status", r: 0, t: 20 },
    });
  });

  it("tell the exact wait after a limit is lowered mid-window", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { key, hash, record } = await createKey({
      rateLimits: { contact_info_status: { limit: 10, windowSeconds: 600 } },
    });
    for (let second = 0; second < 10; second++) {
      vi.setSystemTime(t0 + second * 1000);
      expect((await readUnknownBatch(key)).status).toBe(404);
    }
    await env.API_KEYS.put(
      kvKey.byHash(hash),
      JSON.stringify({ ...record, rateLimits: { contact_info_status: { limit: 3, windowSeconds: 600 } } }),
    );
    // Past API_KEY_CACHE_TTL_SECONDS, so the Worker reads the lowered limit.
    const lowered = t0 + 9_000 + 61_000;
    vi.setSystemTime(lowered);
    const refused = await readUnknownBatch(key);
    await expectProblem(refused, 429, "rate_limited");
    // Used falls below 3 once eight of the ten requests have left: the eighth, made at t0 + 7 s, leaves at t0 + 607 s.
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBe(Math.ceil((t0 + 607_000 - lowered) / 1000));
    expect(rateLimitFields(refused).limit).toEqual({ policy: "contact_info_status", r: 0, t: wait });

    // A client that obeys Retry-After is let through at once; a moment earlier it is not.
    vi.setSystemTime(lowered + wait * 1000 - 1);
    await expectProblem(await readUnknownBatch(key), 429, "rate_limited");
    vi.setSystemTime(lowered + wait * 1000);
    expect((await readUnknownBatch(key)).status).toBe(404);
  });
});

describe("the rate-limits report (GET /v2/{environment}/me/rate-limits)", () => {
  it("lists every endpoint type with its tier, operations and configured limit", async () => {
    const { key } = await createKey({ environment: "live" });
    const response = await request("/v2/live/me/rate-limits", { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      {
        endpointType: "contact_info_request",
        tier: "Tier 3",
        operations: [
          "POST /v2/live/person/contact-info",
          "POST /v2/live/person/contact-info/estimate",
          "DELETE /v2/live/person/contact-info/{id}",
          "POST /v2/live/feedback",
          "DELETE /v2/live/me/connections/{id}",
          "POST /v2/live/privacy/erasures",
          "PUT /v2/live/privacy/suppressions",
          "DELETE /v2/live/privacy/suppressions/{key}",
          "DELETE /v2/live/privacy/do-not-deliver/{key}",
          "PUT /v2/live/integrations/{provider}",
          "DELETE /v2/live/integrations/{provider}",
          "POST /v2/live/crm-syncs",
          "POST /v2/live/crm-syncs/{id}/apply",
          "POST /v2/live/crm-syncs/{id}/undo",
          "POST /v2/live/webhook-endpoints",
          "PATCH /v2/live/webhook-endpoints/{id}",
          "DELETE /v2/live/webhook-endpoints/{id}",
          "POST /v2/live/webhook-endpoints/{id}/rotate-secret",
          "POST /v2/live/webhook-endpoints/{id}/test",
          "POST /v2/live/webhook-endpoints/{id}/recover",
          "POST /v2/live/webhook-deliveries/{id}/redeliver",
        ],
        limit: 50,
        windowSeconds: 60,
        remaining: 50,
        resetSeconds: 0,
        used: 0,
      },
      {
        endpointType: "contact_info_status",
        tier: "Tier 4",
        operations: [
          "GET /v2/live/person/contact-info/{id}",
          "GET /v2/live/person/contact-info",
          "GET /v2/live/person/contact-info/{id}/events",
          "GET /v2/live/integrations",
          "GET /v2/live/integrations/{provider}",
          "GET /v2/live/integrations/{provider}/lists",
          "GET /v2/live/crm-syncs/{id}",
          "GET /v2/live/webhook-endpoints",
          "GET /v2/live/webhook-endpoints/{id}",
          "GET /v2/live/webhook-deliveries",
          "GET /v2/live/webhook-deliveries/{id}",
        ],
        limit: 100,
        windowSeconds: 60,
        remaining: 100,
        resetSeconds: 0,
        used: 0,
      },
      {
        endpointType: "rate_limits",
        tier: "Tier 4",
        operations: [
          "GET /v2/live/me/rate-limits",
          "GET /v2/live/me/usage",
          "GET /v2/live/me/sources",
          "GET /v2/live/me/connections",
          "GET /v2/live/me/budget",
          "PUT /v2/live/me/budget",
          "GET /v2/live/me/ledger",
          "GET /v2/live/privacy/erasures/{id}",
          "GET /v2/live/privacy/suppressions",
          "GET /v2/live/privacy/do-not-deliver",
        ],
        limit: 100,
        windowSeconds: 60,
        remaining: 99,
        resetSeconds: 60,
        used: 1,
      },
      {
        endpointType: "mcp_protocol",
        tier: "MCP",
        operations: ["POST /mcp: every JSON-RPC request but tools/call (initialize, tools/list, ping, …)"],
        limit: 300,
        windowSeconds: 60,
        remaining: 300,
        resetSeconds: 0,
        used: 0,
      },
    ]);
  });

  it("shows the limits stored on the key's record, and the tier default for the rest", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 7, windowSeconds: 30 } } });
    const limits = await readLimits(key);
    expect(limits.find((l) => l.endpointType === "contact_info_status")).toMatchObject({ limit: 7, windowSeconds: 30 });
    expect(limits.find((l) => l.endpointType === "contact_info_request")).toMatchObject({
      limit: 50,
      windowSeconds: 60,
    });
  });

  it("reports what the customer has used, this request included, and when each window frees", async () => {
    // Time stands still, so every hit is exactly one window old at the reset.
    vi.useFakeTimers({ toFake: ["Date"] });
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person()] });
    await getStatus(key, batchId);
    await getStatus(key, batchId);
    await readLimits(key);
    const report = await readLimits(key);
    expect(
      report.map(({ endpointType, used, remaining, limit, resetSeconds }) => ({
        endpointType,
        used,
        remaining,
        limit,
        resetSeconds,
      })),
    ).toEqual([
      { endpointType: "contact_info_request", used: 1, remaining: 49, limit: 50, resetSeconds: 60 },
      { endpointType: "contact_info_status", used: 2, remaining: 98, limit: 100, resetSeconds: 60 },
      { endpointType: "rate_limits", used: 2, remaining: 98, limit: 100, resetSeconds: 60 },
      { endpointType: "mcp_protocol", used: 0, remaining: 300, limit: 300, resetSeconds: 0 },
    ]);
  });

  it("counts the requests of every key of the customer in that environment", async () => {
    const customerId = `cus_${crypto.randomUUID()}`;
    const first = await createKey({ customerId });
    const second = await createKey({ customerId });
    const live = await createKey({ customerId, environment: "live" });
    await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key: first.key });
    await readLimits(first.key);
    const report = await readLimits(second.key);
    expect(report.map(({ used }) => used)).toEqual([0, 1, 2, 0]);
    expect((await readLimits(live.key, "live")).map(({ used }) => used)).toEqual([0, 0, 1, 0]);
  });

  it("reports zero usage and no reset time for untouched endpoint types", async () => {
    const { key } = await createKey({ environment: "live" });
    const report = await readLimits(key, "live");
    expect(report[0]).toMatchObject({ endpointType: "contact_info_request", used: 0, remaining: 50, resetSeconds: 0 });
  });

  it("applies a limit stored on the key's KV record", async () => {
    const { key } = await createKey({ rateLimits: { rate_limits: { limit: 2, windowSeconds: 10 } } });
    expect((await readLimits(key))[2]).toMatchObject({
      endpointType: "rate_limits",
      limit: 2,
      windowSeconds: 10,
      used: 1,
      remaining: 1,
    });
    await readLimits(key);
    await expectProblem(await request("/v2/test/me/rate-limits", { key }), 429, "rate_limited");
  });

  it("deletes the expired hits of every endpoint type from storage, not only from its answer", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { key, record } = await createKey();
    for (let i = 0; i < 3; i++) await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key });
    vi.setSystemTime(t0 + 61_000);
    expect((await readLimits(key)).map(({ used }) => used)).toEqual([0, 0, 1, 0]);
    const stored = await runInDurableObject(limiterStub(env, record), (_, state) =>
      state.storage.sql
        .exec<{ endpoint_type: string; hits: number }>(
          "SELECT endpoint_type, count(*) AS hits FROM hits GROUP BY endpoint_type",
        )
        .toArray(),
    );
    expect(stored).toEqual([{ endpoint_type: "rate_limits", hits: 1 }]);
  });
});

describe("the batch list, delete and usage", () => {
  it("count as reads (contact_info_status, rate_limits) and writes (contact_info_request)", async () => {
    const { key } = await createKey({
      rateLimits: {
        contact_info_status: { limit: 1, windowSeconds: 60 },
        rate_limits: { limit: 1, windowSeconds: 60 },
        contact_info_request: { limit: 1, windowSeconds: 60 },
      },
    });
    expect((await request("/v2/test/person/contact-info", { key })).status).toBe(200);
    await expectProblem(await request("/v2/test/person/contact-info", { key }), 429, "rate_limited");
    expect((await request("/v2/test/me/usage", { key })).status).toBe(200);
    await expectProblem(await request("/v2/test/me/usage", { key }), 429, "rate_limited");
    const id = crypto.randomUUID();
    expect((await request(`/v2/test/person/contact-info/${id}`, { method: "DELETE", key })).status).toBe(404);
    const refused = await expectProblem(
      await request(`/v2/test/person/contact-info/${id}`, { method: "DELETE", key }),
      429,
      "rate_limited",
    );
    expect(refused.endpointType).toBe("contact_info_request");
  });
});
