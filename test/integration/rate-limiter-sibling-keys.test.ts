import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EndpointType, RateLimitSetting } from "../../src/rate-limit/endpoint-types";
import { type Decision, decide } from "../../src/rate-limit/sliding-window";
import { limiterStub } from "../../src/rate-limit/stub";
import { WINDOW_FORGOTTEN_AFTER_MS } from "../../src/rate-limit/windows-in-use";
import { createKey, request } from "../helpers";

afterEach(() => {
  vi.useRealTimers();
});

/** Every allowed request's time, kept in full, each request decided over its own key's window: what the limiter must answer. */
function referenceLimiter() {
  const allowed: number[] = [];
  return (now: number, setting: RateLimitSetting): Decision => {
    const live = allowed.filter((at) => at > now - setting.windowSeconds * 1000);
    const decision = decide({ count: live.length, at: (index) => live[index]! }, now, setting);
    if (decision.allowed) allowed.push(Math.max(now, allowed[allowed.length - 1] ?? now));
    return decision;
  };
}

const settings = (status: RateLimitSetting): Record<EndpointType, RateLimitSetting> => ({
  contact_info_request: { limit: 10, windowSeconds: 60 },
  contact_info_status: status,
  rate_limits: { limit: 10, windowSeconds: 60 },
  mcp_protocol: { limit: 10, windowSeconds: 60 },
});

describe("keys of one customer with different windows", () => {
  it("keep counting an hour key's hits while a minute key's calls sweep expired hits, across evictions", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const customerId = `cus_${crypto.randomUUID()}`;
    const hourly = await createKey({ customerId, rateLimits: { rate_limits: { limit: 5, windowSeconds: 3600 } } });
    const minutely = await createKey({ customerId, rateLimits: { rate_limits: { limit: 60, windowSeconds: 60 } } });
    const stub = limiterStub(env, hourly.record);
    const readLimits = (key: string) => request("/v2/test/me/rate-limits", { key });
    const at = async (ms: number, key: string) => {
      vi.setSystemTime(t0 + ms);
      return readLimits(key);
    };

    for (let i = 0; i < 5; i++) expect((await at(i * 1000, hourly.key)).status).toBe(200);
    // After an eviction the object knows the hour window only from its storage.
    await evictDurableObject(stub);
    expect((await at(61_000, minutely.key)).status).toBe(200);
    // Six counted in the hour: it frees a unit when the second oldest (at 1 s) leaves, 3,539 s from now.
    const refused = await at(62_000, hourly.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("3539");

    // Status reads of the minute key sweep every type's expired hits, none of the hour's.
    for (const ms of [600_000, 1_800_000, 3_599_000]) {
      await evictDurableObject(stub);
      vi.setSystemTime(t0 + ms);
      expect((await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key: minutely.key })).status).toBe(
        404,
      );
    }
    const stillRefused = await at(3_601_000 - 1, hourly.key);
    expect(stillRefused.status).toBe(429);
    expect(stillRefused.headers.get("retry-after")).toBe("1");
    expect((await at(3_601_000, hourly.key)).status).toBe(200);
  });

  it("decide as a full log would when two keys' requests alternate", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { record } = await createKey();
    const stub = limiterStub(env, record);
    const reference = referenceLimiter();
    const keys = [
      { limit: 120, windowSeconds: 30 },
      { limit: 40, windowSeconds: 3 },
    ];
    // Bursts and pauses: 800 requests over 72 s, the short window filling and emptying, the long one
    // sliding past many. Bursts of an odd length, so each key in turn makes the first call of one (the sweep).
    for (let i = 0; i < 800; i++) {
      const now = t0 + Math.floor(i / 45) * 4_000 + (i % 45) * 20;
      const setting = keys[i % 2]!;
      vi.setSystemTime(now);
      const { decision } = await stub.consume("contact_info_status", settings(setting));
      expect(decision, `request ${i}`).toEqual(reference(now, setting));
    }
  });

  it("read nothing from storage while alternating keys' hits stay inside both windows", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { record } = await createKey();
    const stub = limiterStub(env, record);
    const keys = [settings({ limit: 1000, windowSeconds: 3600 }), settings({ limit: 1000, windowSeconds: 60 })];
    const statements = await runInDurableObject(stub, (limiter, state) => {
      for (const [i, limits] of keys.entries()) {
        vi.setSystemTime(t0 + i);
        limiter.consume("contact_info_status", limits);
      }
      const exec = vi.spyOn(state.storage.sql, "exec");
      for (let i = 0; i < 200; i++) {
        vi.setSystemTime(t0 + 10 + i * 10);
        expect(limiter.consume("contact_info_status", keys[i % 2]!).decision).toMatchObject({
          allowed: true,
          used: i + 3,
        });
      }
      const statements = exec.mock.calls.map(([query]) => query.trim().split(/\s/)[0]);
      exec.mockRestore();
      return {
        selects: statements.filter((verb) => verb === "SELECT").length,
        inserts: statements.filter((verb) => verb === "INSERT").length,
      };
    });
    // The spy sees the object's statements: one INSERT per allowed request.
    expect(statements).toEqual({ selects: 0, inserts: 200 });
  });

  it("stop holding an unused longer window's hits once it is forgotten", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { record } = await createKey();
    const stub = limiterStub(env, record);
    const hourly = settings({ limit: 100, windowSeconds: 3600 });
    const minutely = settings({ limit: 100, windowSeconds: 60 });
    const stored = () =>
      runInDurableObject(stub, (_, state) => ({
        hits: state.storage.sql
          .exec<{ at: number }>("SELECT at FROM hits WHERE endpoint_type = 'contact_info_status' ORDER BY seq")
          .toArray(),
        windows: state.storage.sql
          .exec<{ window_seconds: number }>(
            "SELECT window_seconds FROM windows WHERE endpoint_type = 'contact_info_status' ORDER BY 1",
          )
          .toArray(),
      }));
    const consumeAt = async (at: number, limits: Record<EndpointType, RateLimitSetting>) => {
      vi.setSystemTime(at);
      expect((await stub.consume("contact_info_status", limits)).decision.allowed).toBe(true);
    };

    // The hour window (lowered since) was last used at t0: the minute key's hits are kept for an hour until it is forgotten.
    await consumeAt(t0, hourly);
    const forgottenAt = t0 + WINDOW_FORGOTTEN_AFTER_MS;
    await consumeAt(forgottenAt - 1_800_000, minutely);
    await consumeAt(forgottenAt - 1, minutely);
    expect(await stored()).toEqual({
      hits: [{ at: forgottenAt - 1_800_000 }, { at: forgottenAt - 1 }],
      windows: [{ window_seconds: 60 }, { window_seconds: 3600 }],
    });
    await consumeAt(forgottenAt + 1_000, minutely);
    expect(await stored()).toEqual({
      hits: [{ at: forgottenAt - 1 }, { at: forgottenAt + 1_000 }],
      windows: [{ window_seconds: 60 }],
    });
  });
});
