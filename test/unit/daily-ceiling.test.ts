import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { VendorHeldError } from "../../src/enrichment/call-gate";
import { type CeilingCounter, ceilingGate, VendorBudgetExhaustedError } from "../../src/enrichment/ceiling-gate";
import { fetchJson } from "../../src/enrichment/upstream";
import { readVendorConfig } from "../../src/enrichment/vendor-config";
import {
  DAYS_KEPT,
  decideCeiling,
  MAX_CALLS_PER_TAKE,
  nextUtcDay,
  oldestDayKept,
  utcDay,
} from "../../src/vendor-governor/daily-ceiling";
import { envWith } from "../helpers";

const NOON = Date.parse("2026-11-29T12:00:00.000Z");

/** A ceiling object as it decides (decideCeiling), counting what it grants and the takes it answers. */
function fakeCounter(ceiling: number) {
  let calls = 0;
  const takes: number[] = [];
  const counter: CeilingCounter = {
    async take(want, asked) {
      takes.push(want);
      const granted = decideCeiling(calls, Math.min(MAX_CALLS_PER_TAKE, want), asked);
      calls += granted;
      return { granted, calls, resetsAt: nextUtcDay(Date.now()) };
    },
  };
  return { counter, takes, counted: () => calls, ceiling };
}

describe("the daily ceiling's decision", () => {
  it("grants every call that fits and none past the ceiling, however the takes come", () => {
    fc.assert(
      fc.property(fc.nat(50), fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 30 }), (ceiling, wants) => {
        let used = 0;
        for (const want of wants) {
          const granted = decideCeiling(used, want, ceiling);
          expect(granted).toBeGreaterThanOrEqual(0);
          expect(granted).toBeLessThanOrEqual(want);
          // All of it while it fits; only what is left once it does not.
          expect(granted).toBe(Math.min(want, ceiling - used));
          used += granted;
        }
        expect(used).toBe(
          Math.min(
            ceiling,
            wants.reduce((sum, want) => sum + want, 0),
          ),
        );
      }),
    );
  });

  it("grants nothing under a ceiling of 0", () => {
    expect(decideCeiling(0, 5, 0)).toBe(0);
  });

  it("counts in UTC days: a day ends at 00:00 UTC, and a week of counts is kept", () => {
    expect(utcDay(Date.parse("2026-11-29T23:59:59.999Z"))).toBe("2026-11-29");
    expect(utcDay(Date.parse("2026-11-30T00:00:00.000Z"))).toBe("2026-11-30");
    expect(nextUtcDay(NOON)).toBe(Date.parse("2026-11-30T00:00:00.000Z"));
    expect(nextUtcDay(Date.parse("2026-12-31T00:00:00.000Z"))).toBe(Date.parse("2027-01-01T00:00:00.000Z"));
    expect(DAYS_KEPT).toBe(7);
    expect(oldestDayKept(NOON)).toBe("2026-11-23");
  });
});

describe("VENDOR_DAILY_CALLS", () => {
  it("reads vendor=CALLS entries, any vendor (finders and verifiers), and no ceiling for the others", () => {
    const { dailyCalls } = readVendorConfig(envWith({ VENDOR_DAILY_CALLS: " hunter=5000, pdl=2000,zerobounce=0 " }));
    expect(dailyCalls).toEqual(
      new Map([
        ["hunter", 5000],
        ["pdl", 2000],
        ["zerobounce", 0],
      ]),
    );
    expect(readVendorConfig(envWith({ VENDOR_DAILY_CALLS: "" })).dailyCalls.size).toBe(0);
  });

  it("refuses an unknown vendor or a number that is not a whole number >= 0, naming the variable and entry", () => {
    for (const entry of ["hunterr=5000", "hunter=-1", "hunter=1.5", "hunter=", "hunter", "hunter=5=6", "pdl=lots"]) {
      expect(() => readVendorConfig(envWith({ VENDOR_DAILY_CALLS: entry }))).toThrow(
        `config var VENDOR_DAILY_CALLS entry "${entry}" is not vendor=CALLS`,
      );
    }
  });
});

describe("a consumer invocation's side of a vendor's daily ceiling", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOON);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks one take at a time for the calls waiting, lets the granted go, and refuses the rest without asking again", async () => {
    const fake = fakeCounter(3);
    const ceiling = ceilingGate("hunter", fake.ceiling, () => fake.counter);
    const calls = await Promise.allSettled(Array.from({ length: 5 }, () => ceiling.take()));
    expect(calls.map((call) => call.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected", "rejected"]);
    // The first call's take, then one for the four that came while it was in flight.
    expect(fake.takes).toEqual([1, 4]);
    expect(fake.counted()).toBe(3);
    const later = await ceiling.take().catch((error: unknown) => error);
    expect(later).toBeInstanceOf(VendorBudgetExhaustedError);
    expect(() => ceiling.refuseWhenSpent()).toThrow(VendorBudgetExhaustedError);
    expect(fake.takes).toEqual([1, 4]);
  });

  it("asks again from the next UTC day", async () => {
    const fake = fakeCounter(0);
    const ceiling = ceilingGate("hunter", fake.ceiling, () => fake.counter);
    await expect(ceiling.take()).rejects.toBeInstanceOf(VendorBudgetExhaustedError);
    vi.setSystemTime(nextUtcDay(NOON));
    expect(() => ceiling.refuseWhenSpent()).not.toThrow();
    await expect(ceiling.take()).rejects.toBeInstanceOf(VendorBudgetExhaustedError);
    expect(fake.takes).toEqual([1, 1]);
  });

  it("holds the calls (to be retried, never made uncounted) when the ceiling cannot be asked", async () => {
    const ceiling = ceilingGate("hunter", 10, () => ({ take: () => Promise.reject(new Error("object reset")) }));
    await expect(ceiling.take()).rejects.toBeInstanceOf(VendorHeldError);
  });

  it("is taken only once the vendor's rate lets the call go: a call the rate governor holds is not counted", async () => {
    const fake = fakeCounter(10);
    const ceiling = ceilingGate("hunter", fake.ceiling, () => fake.counter);
    const fetch = vi.fn(async () => Response.json({}));
    const held = {
      take: () => Promise.reject(new VendorHeldError("hunter: held by the rate governor")),
      pause: async () => {},
    };
    const call = { provider: "hunter", fetch, timeoutMs: 1000, gate: held, ceiling };
    await expect(fetchJson(call, new Request("https://hunter.test/"), z.unknown())).rejects.toBeInstanceOf(
      VendorHeldError,
    );
    expect(fake.takes).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
    // Let through by the rate: counted, then called.
    await fetchJson(
      { ...call, gate: { ...held, take: async () => {} } },
      new Request("https://hunter.test/"),
      z.unknown(),
    );
    expect(fake.counted()).toBe(1);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
