import { parseList } from "structured-headers";
import { describe, expect, it } from "vitest";
import { rateLimitHeaders } from "../../src/rate-limit/headers";
import { decide, type WindowLog, windowUsage } from "../../src/rate-limit/sliding-window";

const setting = { limit: 3, windowSeconds: 60 };
const at = (seconds: number) => 1_000_000 + seconds * 1000;

/** The limiter's view of one endpoint type: the hits still inside the window at `now`, oldest first. */
function logOf(hits: number[], now: number, windowSeconds: number): WindowLog {
  const live = hits.filter((hit) => hit > now - windowSeconds * 1000);
  return { count: live.length, at: (index) => live[index]! };
}

/** Replays requests through `decide`, keeping the allowed ones as the limiter stores them. */
function simulate(times: number[], chosen = setting) {
  const hits: number[] = [];
  return times.map((now) => {
    const decision = decide(logOf(hits, now, chosen.windowSeconds), now, chosen);
    if (decision.allowed) hits.push(now);
    return decision;
  });
}

describe("the sliding window decision", () => {
  it("allows exactly `limit` requests in a window", () => {
    expect(simulate([0, 1, 2, 3, 4].map(at)).map((d) => d.allowed)).toEqual([true, true, true, false, false]);
  });

  it("frees one unit as each counted request leaves the window", () => {
    expect(simulate([0, 10, 20, 59, 60, 61, 70].map(at)).map((d) => d.allowed)).toEqual([
      true,
      true,
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  it("allows no burst across a window boundary, unlike fixed windows", () => {
    expect(simulate([57, 58, 59, 60, 61, 62, 116, 117].map(at)).map((d) => d.allowed)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it("reports usage as it is after counting the request", () => {
    expect(decide(logOf([at(0)], at(15.5), 60), at(15.5), setting)).toEqual({
      allowed: true,
      limit: 3,
      windowSeconds: 60,
      used: 2,
      remaining: 1,
      resetSeconds: 45,
    });
  });

  it("counts nothing for a refused request", () => {
    const full = logOf([at(0), at(1), at(2)], at(3), 60);
    expect(decide(full, at(3), setting)).toEqual({
      allowed: false,
      limit: 3,
      windowSeconds: 60,
      used: 3,
      remaining: 0,
      resetSeconds: 57,
    });
  });
});

describe("window usage", () => {
  it("is empty, with no reset time, once the window has passed", () => {
    expect(windowUsage(logOf([at(0), at(1), at(2)], at(200), 60), at(200), setting)).toEqual({
      limit: 3,
      windowSeconds: 60,
      used: 0,
      remaining: 3,
      resetSeconds: 0,
    });
  });

  it("after a limit is lowered, gives the time until `used` falls below the new limit", () => {
    // Ten requests a second apart under a limit of 10; the limit is then lowered to 3.
    const hits = Array.from({ length: 10 }, (_, i) => at(i));
    const lowered = { limit: 3, windowSeconds: 60 };
    const usage = windowUsage(logOf(hits, at(20), 60), at(20), lowered);
    // Eight hits must leave (10 − 8 < 3): the eighth oldest, at 7 s, leaves at 67 s.
    expect(usage).toMatchObject({ used: 10, remaining: 0, resetSeconds: 47 });
    expect(decide(logOf(hits, at(66.999), 60), at(66.999), lowered).allowed).toBe(false);
    expect(decide(logOf(hits, at(67), 60), at(67), lowered).allowed).toBe(true);
  });

  it("never reports less than one second while a request is counted", () => {
    expect(windowUsage(logOf([at(0)], at(59.9), 60), at(59.9), setting).resetSeconds).toBe(1);
  });
});

describe("RateLimit header fields", () => {
  it("parse as structured-field lists naming the endpoint type, with quota, window, remaining and reset", () => {
    const headers = rateLimitHeaders("contact_info_status", {
      limit: 100,
      windowSeconds: 60,
      used: 1,
      remaining: 99,
      resetSeconds: 60,
    });
    const [policy] = parseList(headers["ratelimit-policy"]!);
    const [limit] = parseList(headers.ratelimit!);
    expect(policy?.[0]).toBe("contact_info_status");
    expect(Object.fromEntries(policy![1] as Map<string, unknown>)).toEqual({ q: 100, w: 60 });
    expect(limit?.[0]).toBe("contact_info_status");
    expect(Object.fromEntries(limit![1] as Map<string, unknown>)).toEqual({ r: 99, t: 60 });
  });
});
