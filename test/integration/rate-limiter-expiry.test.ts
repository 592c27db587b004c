import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { limiterStub } from "../../src/rate-limit/stub";
import { createKey, request } from "../helpers";

afterEach(() => {
  vi.useRealTimers();
});

describe("a limiter asked only for a decision", () => {
  it("still deletes the expired hits of the other endpoint types", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { key, record } = await createKey();
    for (let i = 0; i < 3; i++) expect((await request("/v2/test/me/rate-limits", { key })).status).toBe(200);
    vi.setSystemTime(t0 + 61_000);
    // A status read needs only its own decision.
    expect((await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key })).status).toBe(404);
    const stored = await runInDurableObject(limiterStub(env, record), (_, state) =>
      state.storage.sql
        .exec<{ endpoint_type: string; hits: number }>(
          "SELECT endpoint_type, count(*) AS hits FROM hits GROUP BY endpoint_type",
        )
        .toArray(),
    );
    expect(stored).toEqual([{ endpoint_type: "contact_info_status", hits: 1 }]);
  });

  it("answers the decision without the usage of every type", async () => {
    const { record } = await createKey();
    const limits = { limit: 10, windowSeconds: 60 };
    const settings = {
      contact_info_request: limits,
      contact_info_status: limits,
      rate_limits: limits,
      mcp_protocol: limits,
    };
    const stub = limiterStub(env, record);
    expect(await stub.consume("contact_info_status", settings)).toEqual({
      decision: expect.objectContaining({ allowed: true, used: 1 }),
    });
    const { usage } = await stub.consume("rate_limits", settings, { withUsage: true });
    expect(usage?.contact_info_status).toMatchObject({ used: 1, remaining: 9 });
  });
});
