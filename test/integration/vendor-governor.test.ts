import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RateWindow } from "../../src/base/vendor-limits";
import type { Grant, LeaseDecision } from "../../src/vendor-governor/lease-decision";

// The object's clock is Date.now(), which fake timers move in the test runtime (as for the rate limiter).
const T0 = Date.parse("2026-11-26T12:00:00.000Z");
const at = (ms: number) => vi.setSystemTime(T0 + ms);

let objects = 0;
const governor = () => env.VENDOR_GOVERNORS.getByName(`hunter:governor-test-${++objects}-${crypto.randomUUID()}`);

/** The grants among decisions, as the object issued them (its own clock, its own counts). */
const grantsOf = (decisions: readonly LeaseDecision[]): Grant[] =>
  decisions.flatMap((decision) => (decision.granted > 0 ? [{ at: decision.at, count: decision.granted }] : []));

/** The most tokens granted in any span of `seconds`: every span that matters starts at a grant. */
const busiestSpan = (grants: readonly Grant[], seconds: number) =>
  Math.max(
    0,
    ...grants.map((first) =>
      grants
        .filter((grant) => grant.at >= first.at && grant.at < first.at + seconds * 1000)
        .reduce((sum, g) => sum + g.count, 0),
    ),
  );

afterEach(() => {
  vi.useRealTimers();
});

describe("a vendor's governor, leased by many consumers at once", () => {
  it("never grants more than any configured window allows, and grants about all of it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const stub = governor();
    const windows: RateWindow[] = [
      { limit: 15, seconds: 1 },
      { limit: 100, seconds: 10 },
    ];
    // Three consumers' demand is already many times the limits; more only made the test slow on a busy machine.
    const consumers = 3;
    const decisions: LeaseDecision[] = [];
    // 20 s in steps of 100 ms; at each, every simulated consumer invocation sends two leases at once
    // (for the calls it has waiting), all in flight together at the one object.
    for (let ms = 0; ms < 20_000; ms += 100) {
      at(ms);
      const wants = Array.from({ length: consumers * 2 }, (_, i) => 1 + ((ms / 100 + i * 7) % 10));
      decisions.push(...(await Promise.all(wants.map((want) => stub.lease(want, windows)))));
    }
    const grants = grantsOf(decisions);
    expect(busiestSpan(grants, 1)).toBeLessThanOrEqual(15);
    expect(busiestSpan(grants, 10)).toBeLessThanOrEqual(100);
    // Demand always exceeded the limits, so each 10 s window was used, not merely respected.
    for (const start of [0, 10_000]) {
      const used = grants
        .filter((grant) => grant.at >= T0 + start && grant.at < T0 + start + 10_000)
        .reduce((s, g) => s + g.count, 0);
      expect(used).toBe(100);
    }
    // A refusal names when to ask again, never a moment already past.
    for (const decision of decisions) if ("retryAt" in decision) expect(decision.retryAt).toBeGreaterThan(decision.at);
    // 1,200 calls to the object in sequence of steps: fixed work, given time on two busy cores.
  }, 120_000);

  it("grants at most a block a lease, however many calls a consumer has waiting", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    at(0);
    expect(await governor().lease(500, [{ limit: 1_000, seconds: 60 }])).toEqual({ granted: 10, at: T0 });
  });
});

describe("a vendor's 429 with Retry-After, reported to its governor", () => {
  it("pauses the vendor for every consumer: no grant before Retry-After has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const stub = governor();
    const windows: RateWindow[] = [{ limit: 1_000, seconds: 1 }];
    at(0);
    expect((await stub.lease(1, windows)).granted).toBe(1);
    await stub.pause(5, "hunter");
    const decisions: LeaseDecision[] = [];
    for (let ms = 0; ms <= 6_000; ms += 100) {
      at(ms);
      decisions.push(...(await Promise.all(Array.from({ length: 8 }, () => stub.lease(3, windows)))));
    }
    const granted = grantsOf(decisions);
    expect(Math.min(...granted.map((grant) => grant.at))).toBe(T0 + 5_000);
    for (const decision of decisions.filter((d) => d.at < T0 + 5_000))
      expect(decision).toMatchObject({ granted: 0, retryAt: T0 + 5_000 });
  });

  it("keeps the longer of two pauses", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const stub = governor();
    at(0);
    await stub.pause(30, "hunter");
    await stub.pause(2, "hunter");
    at(10_000);
    expect(await stub.lease(1, [{ limit: 10, seconds: 1 }])).toMatchObject({ granted: 0, retryAt: T0 + 30_000 });
  });

  it("still holds after the object is evicted: the pause is stored, the grants are not", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const stub = governor();
    const windows: RateWindow[] = [{ limit: 10, seconds: 60 }];
    at(0);
    expect((await stub.lease(10, windows)).granted).toBe(10);
    await stub.pause(20, "hunter");
    await evictDurableObject(stub);
    at(19_999);
    expect(await stub.lease(1, windows)).toMatchObject({ granted: 0, retryAt: T0 + 20_000 });
    // What was granted before the eviction is forgotten (docs/architecture.md): the minute starts afresh.
    at(20_000);
    expect((await stub.lease(10, windows)).granted).toBe(10);
  });
});
