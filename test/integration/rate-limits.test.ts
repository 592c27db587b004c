import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { limiterStub } from "../../src/rate-limit/stub";
import { createKey, expectProblem, getStatus, person, request, submitBatch } from "../helpers";

afterEach(() => {
  vi.useRealTimers();
});

type Introspection = { endpointType: string; limit: number; windowSeconds: number; used: number; remaining: number; resetSeconds: number }[];

const readLimits = async (key: string, environment: "test" | "live" = "test") =>
  (await request(`/v2/${environment}/me/rate-limits`, { key })).json<Introspection>();

describe("GET /v2/{environment}/me/rate-limits", () => {
  it("lists every endpoint type with its tier, operations and configured limit", async () => {
    const { key } = await createKey({ environment: "live" });
    const response = await request("/v2/live/me/rate-limits", { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { endpointType: "contact_info_request", tier: "Tier 3", operations: ["POST /v2/live/person/contact-info"], limit: 50, windowSeconds: 60, remaining: 50, resetSeconds: 0, used: 0 },
      { endpointType: "contact_info_status", tier: "Tier 4", operations: ["GET /v2/live/person/contact-info/{id}"], limit: 100, windowSeconds: 60, remaining: 100, resetSeconds: 0, used: 0 },
      { endpointType: "rate_limits", tier: "Tier 4", operations: ["GET /v2/live/me/rate-limits"], limit: 100, windowSeconds: 60, remaining: 99, resetSeconds: 60, used: 1 },
    ]);
  });

  it("shows the limits stored on the key's record, and the tier default for the rest", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 7, windowSeconds: 30 } } });
    const limits = await readLimits(key);
    expect(limits.find((l) => l.endpointType === "contact_info_status")).toMatchObject({ limit: 7, windowSeconds: 30 });
    expect(limits.find((l) => l.endpointType === "contact_info_request")).toMatchObject({ limit: 50, windowSeconds: 60 });
  });

  it("reports what the customer has used, this request included", async () => {
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

  it("counts the requests of every key of the customer in that environment", async () => {
    const customerId = `cus_${crypto.randomUUID()}`;
    const first = await createKey({ customerId });
    const second = await createKey({ customerId });
    const live = await createKey({ customerId, environment: "live" });
    await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key: first.key });
    await readLimits(first.key);
    const report = await readLimits(second.key);
    expect(report.map(({ used }) => used)).toEqual([0, 1, 2]);
    expect((await readLimits(live.key, "live")).map(({ used }) => used)).toEqual([0, 0, 1]);
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

  it("deletes the expired hits of every endpoint type from storage, not only from its answer", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { key, record } = await createKey();
    for (let i = 0; i < 3; i++) await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key });
    vi.setSystemTime(t0 + 61_000);
    expect((await readLimits(key)).map(({ used }) => used)).toEqual([0, 0, 1]);
    const stored = await runInDurableObject(limiterStub(env, record), (_, state) =>
      state.storage.sql.exec<{ endpoint_type: string; hits: number }>("SELECT endpoint_type, count(*) AS hits FROM hits GROUP BY endpoint_type").toArray(),
    );
    expect(stored).toEqual([{ endpoint_type: "rate_limits", hits: 1 }]);
  });
});
