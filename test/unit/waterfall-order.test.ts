import { describe, expect, it } from "vitest";
import type { ContactProvider } from "../../src/enrichment/provider";
import { orderFinders, verifiedHitRate } from "../../src/enrichment/waterfall-order";

const provider = (name: string): ContactProvider => ({ name, find: async () => ({ emails: [], phones: [] }) });
const configured = ["directory", "pattern", "hunter", "pdl", "apollo", "prospeo"].map(provider);
const prices = new Map([
  ["hunter", 0.03],
  ["pdl", 0.1],
  ["apollo", 0.04],
  ["prospeo", 0.03],
]);
const names = (providers: ContactProvider[]) => providers.map(({ name }) => name);
const never = () => 0.99;

/** mulberry32, seeded: the tests' exploration draws are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the learned order", () => {
  it("with nothing learned, asks the paid finders cheapest first (ties as configured); free sources keep their places", () => {
    const ordered = orderFinders(configured, prices, { sources: {}, domains: {} }, "a.example", 0, never);
    expect(names(ordered)).toEqual(["directory", "pattern", "hunter", "prospeo", "apollo", "pdl"]);
  });

  it("asks first, for a domain, the finder with the lowest price per verified hit there", () => {
    const learned = {
      sources: { hunter: { calls: 100, hits: 60, valid: 55 }, pdl: { calls: 100, hits: 50, valid: 45 } },
      domains: {
        "a.example": {
          hunter: { calls: 20, hits: 1, valid: 1 },
          prospeo: { calls: 20, hits: 2, valid: 2 },
          apollo: { calls: 20, hits: 18, valid: 17 },
          pdl: { calls: 20, hits: 19, valid: 18 },
        },
      },
    };
    expect(names(orderFinders(configured, prices, learned, "a.example", 0, never)).slice(2)).toEqual([
      "apollo",
      "pdl",
      "hunter",
      "prospeo",
    ]);
    // Another domain: the overall records only.
    expect(names(orderFinders(configured, prices, learned, "b.example", 0, never))[2]).toBe("hunter");
  });

  it("judges a domain seen a few times mostly by the source's overall rate, one seen often by its own", () => {
    const overall = { calls: 1000, hits: 800, valid: 800 };
    expect(verifiedHitRate(overall, { calls: 1, hits: 0, valid: 0 })).toBeGreaterThan(0.5);
    expect(verifiedHitRate(overall, { calls: 100, hits: 0, valid: 0 })).toBeLessThan(0.05);
    expect(verifiedHitRate(undefined, undefined)).toBe(0.25);
  });

  it("explores a random order for the configured share of items, the same for the same seed", () => {
    const run = (seed: number, exploration: number) => {
      const random = seeded(seed);
      return Array.from({ length: 1000 }, () =>
        names(orderFinders(configured, prices, { sources: {}, domains: {} }, "a.example", exploration, random)).join(),
      );
    };
    const usual = "directory,pattern,hunter,prospeo,apollo,pdl";
    const explored = run(7, 0.05).filter((order) => order !== usual).length;
    // 5% explore, and a random order is the usual one 1 time in 24.
    expect(explored).toBeGreaterThan(25);
    expect(explored).toBeLessThan(75);
    expect(run(7, 0.05)).toEqual(run(7, 0.05));
    expect(run(7, 0).every((order) => order === usual)).toBe(true);
  });
});
