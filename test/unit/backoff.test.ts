import { describe, expect, it } from "vitest";
import { retryDelaySeconds } from "../../src/queue/backoff";

describe("retry backoff", () => {
  it("doubles from the base with each attempt", () => {
    const upper = (attempt: number) => retryDelaySeconds(attempt, 10, 10_000, () => 1);
    expect([1, 2, 3, 4].map(upper)).toEqual([10, 20, 40, 80]);
  });

  it("never exceeds the cap", () => {
    expect(retryDelaySeconds(30, 10, 300, () => 1)).toBe(300);
  });

  it("keeps at least half the delay whatever the jitter", () => {
    expect(retryDelaySeconds(3, 10, 10_000, () => 0)).toBe(20);
  });

  it("is zero when the base is zero", () => {
    expect(retryDelaySeconds(5, 0, 0)).toBe(0);
  });
});
