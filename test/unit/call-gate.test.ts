import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RateWindow } from "../../src/base/vendor-limits";
import { callGate, type Lessor, MAX_TOKEN_WAIT_MS, VendorHeldError } from "../../src/enrichment/call-gate";
import { decideLease, type Grant, WINDOW_MARGIN_MS } from "../../src/vendor-governor/lease-decision";

const windows: RateWindow[] = [{ limit: 4, seconds: 1 }];

/** A governor as the object decides (decideLease), counting the leases it answers. */
function fakeGovernor() {
  let grants: Grant[] = [];
  let pausedUntil = 0;
  const leases: number[] = [];
  const lessor: Lessor = {
    async lease(want, asked) {
      leases.push(want);
      const decision = decideLease(grants, Date.now(), Math.min(10, want), asked, pausedUntil);
      if (decision.granted > 0) grants = [...grants, { at: decision.at, count: decision.granted }];
      return decision;
    },
    async pause(seconds) {
      pausedUntil = Date.now() + seconds * 1000;
    },
  };
  return { lessor, leases };
}

const settle = (calls: Promise<void>[]) => Promise.allSettled(calls);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.parse("2026-11-26T12:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a consumer invocation's gate to a vendor", () => {
  it("asks for the calls waiting in one lease, and lets each call go with its token", async () => {
    const { lessor, leases } = fakeGovernor();
    const gate = callGate("hunter", windows, async () => lessor);
    const calls = Array.from({ length: 3 }, () => gate.take());
    await vi.advanceTimersByTimeAsync(0);
    expect(await settle(calls)).toEqual(Array(3).fill({ status: "fulfilled", value: undefined }));
    // The three calls came in one turn: one lease asked for all of them.
    expect(leases).toEqual([3]);
  });

  it("makes calls past the window wait for the moment the governor names, within MAX_TOKEN_WAIT_MS", async () => {
    const { lessor } = fakeGovernor();
    const gate = callGate("hunter", windows, async () => lessor);
    const started = Date.now();
    const went: number[] = [];
    const calls = Array.from({ length: 6 }, () => gate.take().then(() => void went.push(Date.now() - started)));
    await vi.advanceTimersByTimeAsync(1_000 + WINDOW_MARGIN_MS);
    await settle(calls);
    expect(went).toEqual([0, 0, 0, 0, 1_000 + WINDOW_MARGIN_MS, 1_000 + WINDOW_MARGIN_MS]);
  });

  it("holds, with the governor's wait as Retry-After, the calls it cannot serve soon", async () => {
    const { lessor } = fakeGovernor();
    const gate = callGate("hunter", windows, async () => lessor);
    await gate.pause(60);
    const call = gate.take();
    const outcome = expect(call).rejects.toThrow(VendorHeldError);
    await vi.advanceTimersByTimeAsync(0);
    await outcome;
    await expect(call).rejects.toMatchObject({ retryAfterSeconds: 60 });
    expect(60_000).toBeGreaterThan(MAX_TOKEN_WAIT_MS);
  });

  it("holds its calls, never lets them go unbudgeted, when the governor cannot be asked", async () => {
    const gate = callGate("hunter", windows, async () => ({
      lease: () => Promise.reject(new Error("overloaded")),
      pause: () => Promise.resolve(),
    }));
    await expect(gate.take()).rejects.toBeInstanceOf(VendorHeldError);
  });
});
