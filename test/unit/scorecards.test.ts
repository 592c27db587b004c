import { describe, expect, it } from "vitest";
import { latencyBucket, medianLatency } from "../../src/account/latency";
import { emptyUsage, tally } from "../../src/account/usage";
import type { ItemOutcome } from "../../src/contact-info/batch-contract";
import { sourceCalls } from "../../src/enrichment/waterfall";

const valid = {
  address: "a@b.example",
  type: "work" as const,
  status: "valid" as const,
  confidence: 90,
  source: "hunter",
};

describe("what an item adds to its sources' scorecards", () => {
  it("counts a verified-valid hit for the finder whose email a verifier judged valid, and the calls' latencies and rate limits", () => {
    const usage = emptyUsage();
    const outcome: ItemOutcome = {
      index: 0,
      status: "completed",
      outcome: "found",
      emails: [valid, { ...valid, address: "c@b.example", status: "unknown", source: "pdl" }],
      phones: [],
      sources: [
        { name: "apollo", outcome: "unavailable" },
        { name: "hunter", outcome: "found" },
        { name: "pdl", outcome: "found" },
        { name: "zerobounce", outcome: "found", kind: "verifier" },
      ],
      calls: sourceCalls(
        [
          { name: "apollo", outcome: "unavailable", ms: 30, rateLimited: true },
          { name: "hunter", outcome: "found", ms: 120 },
          { name: "pdl", outcome: "found", ms: 80 },
          { name: "prospeo", outcome: "skipped", ms: 0 },
          { name: "zerobounce", outcome: "found", kind: "verifier", ms: 0 },
        ],
        "b.example",
      ),
    };
    // Two items took the result (a follower): the sources were asked once.
    tally(usage, outcome, 2);
    expect(usage.sources).toMatchObject({
      apollo: { calls: 1, found: 0, verifiedValid: 0, rateLimited: 1 },
      hunter: { calls: 1, found: 1, verifiedValid: 1, rateLimited: 0 },
      pdl: { calls: 1, found: 1, verifiedValid: 0 },
      "zerobounce:verifier": { calls: 1, found: 1, verifiedValid: 0 },
    });
    expect(Object.keys(usage.latencies).sort()).toEqual(["apollo", "hunter", "pdl"]);
    expect(usage.latencies.hunter).toEqual({ [String(latencyBucket(120))]: 1 });
    // The learned order's record, by company domain.
    expect(usage.domains["b.example"]).toEqual({
      apollo: { calls: 1, hits: 0, valid: 0 },
      hunter: { calls: 1, hits: 1, valid: 1 },
      pdl: { calls: 1, hits: 1, valid: 0 },
    });
  });
});

describe("the median latency", () => {
  it("is the middle call's bucket, within 5% of its latency", () => {
    const histogram = new Map<number, number>();
    for (const ms of [10, 50, 100, 400, 2_000]) {
      const bucket = latencyBucket(ms);
      histogram.set(bucket, (histogram.get(bucket) ?? 0) + 1);
    }
    const median = medianLatency(histogram) ?? 0;
    expect(Math.abs(median - 100) / 100).toBeLessThan(0.05);
    expect(medianLatency(new Map())).toBeNull();
    expect(medianLatency(new Map([[latencyBucket(0), 3]]))).toBe(1);
  });
});
