import { describe, expect, it } from "vitest";
import { backoff } from "../../src/base/backoff";

describe("retry backoff", () => {
  it("doubles from the base with each attempt", () => {
    const delay = backoff({ baseSeconds: 10, maxSeconds: 10_000 });
    expect([1, 2, 3, 4].map((attempt) => delay(attempt, () => 1))).toEqual([10, 20, 40, 80]);
  });

  it("never exceeds the cap", () => {
    expect(backoff({ baseSeconds: 10, maxSeconds: 300 })(30, () => 1)).toBe(300);
  });

  it("keeps at least half the delay whatever the jitter", () => {
    expect(backoff({ baseSeconds: 10, maxSeconds: 10_000 })(3, () => 0)).toBe(20);
  });

  it("is zero when the base is zero", () => {
    expect(backoff({ baseSeconds: 0, maxSeconds: 0 })(5)).toBe(0);
  });

  it("refuses a base over the cap, or below zero", () => {
    expect(() => backoff({ baseSeconds: 60, maxSeconds: 30 })).toThrow(RangeError);
    expect(() => backoff({ baseSeconds: -1, maxSeconds: 30 })).toThrow(RangeError);
  });
});
