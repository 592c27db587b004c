import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EndpointType, RateLimitSetting } from "../../src/rate-limit/endpoint-types";
import { type Decision, decide } from "../../src/rate-limit/sliding-window";
import { limiterStub } from "../../src/rate-limit/stub";
import { createKey } from "../helpers";

afterEach(() => {
  vi.useRealTimers();
});

/** The same decisions from every allowed request's time, kept in full: what the limiter must answer. */
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

// The limiter keeps a window's oldest hits in memory (64 at a time) and reads storage only when
// they have all left: its answers must be those of a limiter that keeps every hit.
describe("the limiter's window kept in memory", () => {
  it("decides as a full log would, while the window slides past more hits than it keeps", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { record } = await createKey();
    const stub = limiterStub(env, record);
    const reference = referenceLimiter();
    const setting = { limit: 150, windowSeconds: 10 };
    // Bursts and pauses: 700 requests over 60 s, each burst filling or overrunning the window.
    for (let i = 0; i < 700; i++) {
      const now = t0 + Math.floor(i / 50) * 4_300 + (i % 50) * 7;
      vi.setSystemTime(now);
      const { decision } = await stub.consume("contact_info_status", settings(setting));
      expect(decision, `request ${i}`).toEqual(reference(now, setting));
    }
  });

  it("reads the window again after an eviction, a changed window length and a clock step back", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const { record } = await createKey();
    const stub = limiterStub(env, record);
    const reference = referenceLimiter();
    // A shorter window (set-limits), and a clock that steps back two seconds: nothing has
    // left the 30 s window by then, so the stored hits are the full log's.
    const steps: { at: number; setting: RateLimitSetting; evict?: boolean }[] = [
      ...Array.from({ length: 80 }, (_, i) => ({ at: t0 + i * 100, setting: { limit: 100, windowSeconds: 30 } })),
      { at: t0 + 8_200, setting: { limit: 100, windowSeconds: 30 }, evict: true },
      ...Array.from({ length: 20 }, (_, i) => ({
        at: t0 + 7_300 + i * 50,
        setting: { limit: 100, windowSeconds: 30 },
      })),
      ...Array.from({ length: 40 }, (_, i) => ({
        at: t0 + 9_000 + i * 100,
        setting: { limit: 100, windowSeconds: 5 },
      })),
    ];
    for (const [i, step] of steps.entries()) {
      if (step.evict) await evictDurableObject(stub);
      vi.setSystemTime(step.at);
      const { decision } = await stub.consume("contact_info_status", settings(step.setting));
      expect(decision, `step ${i}`).toEqual(reference(step.at, step.setting));
    }
  });
});
