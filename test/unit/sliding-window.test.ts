import { describe, expect, it } from "vitest";
import { rateLimitHeaders } from "../../src/rate-limit/headers";
import { SlidingWindowLog } from "../../src/rate-limit/sliding-window";

const setting = { limit: 3, windowSeconds: 60 };
const at = (seconds: number) => 1_000_000 + seconds * 1000;

describe("the sliding window log", () => {
  it("allows exactly `limit` requests in a window", () => {
    const log = new SlidingWindowLog();
    const results = [0, 1, 2, 3, 4].map((s) => log.consume(at(s), setting).allowed);
    expect(results).toEqual([true, true, true, false, false]);
  });

  it("frees one unit as each counted request leaves the window", () => {
    const log = new SlidingWindowLog();
    for (const s of [0, 10, 20]) log.consume(at(s), setting);
    expect(log.consume(at(59), setting).allowed).toBe(false);
    expect(log.consume(at(60), setting).allowed).toBe(true);
    expect(log.consume(at(61), setting).allowed).toBe(false);
    expect(log.consume(at(70), setting).allowed).toBe(true);
  });

  it("allows no burst across a window boundary, unlike fixed windows", () => {
    const log = new SlidingWindowLog();
    for (const s of [57, 58, 59]) expect(log.consume(at(s), setting).allowed).toBe(true);
    for (const s of [60, 61, 62, 116]) expect(log.consume(at(s), setting).allowed).toBe(false);
    expect(log.consume(at(117), setting).allowed).toBe(true);
  });

  it("resets fully once the window has passed", () => {
    const log = new SlidingWindowLog();
    for (const s of [0, 1, 2]) log.consume(at(s), setting);
    expect(log.usage(at(200), setting)).toEqual({ limit: 3, windowSeconds: 60, used: 0, remaining: 3, resetSeconds: 0 });
  });

  it("reports remaining and the seconds until the oldest request frees a unit", () => {
    const log = new SlidingWindowLog();
    log.consume(at(0), setting);
    expect(log.consume(at(15.5), setting)).toEqual({ allowed: true, limit: 3, windowSeconds: 60, used: 2, remaining: 1, resetSeconds: 45 });
  });

  it("counts only allowed requests", () => {
    const log = new SlidingWindowLog();
    for (let i = 0; i < 10; i++) log.consume(at(i), setting);
    expect(log.hits).toHaveLength(3);
  });

  it("shows no room when a lowered limit is below what was used", () => {
    const log = new SlidingWindowLog();
    for (const s of [0, 1, 2]) log.consume(at(s), setting);
    expect(log.consume(at(3), { limit: 1, windowSeconds: 60 })).toMatchObject({ allowed: false, remaining: 0, used: 3 });
  });
});

describe("RateLimit header fields", () => {
  it("use structured-field syntax with the endpoint type as policy name", () => {
    expect(rateLimitHeaders("contact_info_status", { limit: 100, windowSeconds: 60, used: 1, remaining: 99, resetSeconds: 60 })).toEqual({
      "ratelimit-policy": '"contact_info_status";q=100;w=60',
      ratelimit: '"contact_info_status";r=99;t=60',
    });
  });
});
