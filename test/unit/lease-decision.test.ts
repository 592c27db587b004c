import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RateWindow } from "../../src/base/vendor-limits";
import { decideLease, dropExpired, type Grant, WINDOW_MARGIN_MS } from "../../src/vendor-governor/lease-decision";

const T0 = 1_000_000;
const perSecond: RateWindow[] = [{ limit: 10, seconds: 1 }];
// A grant counts in a window for the window and the margin (for the spread of calls' arrivals at the vendor).
const M = WINDOW_MARGIN_MS;

/** Replays leases (time in ms from T0, tokens asked) through the decision, keeping the grants as the governor does. */
function replay(leases: readonly (readonly [number, number])[], windows: readonly RateWindow[], pausedUntil = 0) {
  let grants: Grant[] = [];
  return leases.map(([ms, want]) => {
    const now = T0 + ms;
    grants = dropExpired(grants, now, windows);
    const decision = decideLease(grants, now, want, windows, pausedUntil);
    if (decision.granted > 0) grants.push({ at: now, count: decision.granted });
    return decision;
  });
}

/** The most tokens granted in any span of `ms` (every span that matters starts at a grant). */
function busiestSpan(grants: readonly Grant[], ms: number): number {
  return Math.max(
    0,
    ...grants.map((first) =>
      grants.filter((grant) => grant.at >= first.at && grant.at < first.at + ms).reduce((sum, g) => sum + g.count, 0),
    ),
  );
}

describe("the governor's lease decision", () => {
  it("grants what is asked while the window has room, then only what is left", () => {
    expect(
      replay(
        [
          [0, 4],
          [10, 4],
          [20, 4],
          [30, 4],
        ],
        perSecond,
      ).map((d) => d.granted),
    ).toEqual([4, 4, 2, 0]);
  });

  it("names, when nothing is left, the moment the oldest grant leaves the window and its margin", () => {
    const [, , refused] = replay(
      [
        [0, 6],
        [100, 4],
        [200, 1],
      ],
      perSecond,
    );
    expect(refused).toEqual({ granted: 0, at: T0 + 200, retryAt: T0 + 1_000 + M });
    // At that moment a lease is granted again, and not a millisecond before.
    expect(
      replay(
        [
          [0, 6],
          [100, 4],
          [999 + M, 1],
          [1_000 + M, 1],
        ],
        perSecond,
      ).map((d) => d.granted),
    ).toEqual([6, 4, 0, 1]);
  });

  it("holds every window a vendor publishes: the per-minute one once the per-second ones are spent", () => {
    const windows: RateWindow[] = [
      { limit: 5, seconds: 1 },
      { limit: 12, seconds: 60 },
    ];
    const decisions = replay(
      [
        [0, 10],
        [1_000 + M, 10],
        [2_000 + 2 * M, 10],
        [3_000 + 3 * M, 10],
      ],
      windows,
    );
    expect(decisions.map((d) => d.granted)).toEqual([5, 5, 2, 0]);
    // The minute frees its first token when the first grant (5 at T0) leaves it.
    expect(decisions[3]).toMatchObject({ retryAt: T0 + 60_000 + M });
  });

  it("grants nothing while the vendor is paused, and names the pause's end", () => {
    const pausedUntil = T0 + 30_000;
    expect(
      replay(
        [
          [0, 1],
          [29_999, 1],
        ],
        perSecond,
        pausedUntil,
      ),
    ).toEqual([
      { granted: 0, at: T0, retryAt: pausedUntil },
      { granted: 0, at: T0 + 29_999, retryAt: pausedUntil },
    ]);
    expect(replay([[30_000, 3]], perSecond, pausedUntil)[0]).toEqual({ granted: 3, at: pausedUntil });
  });

  it("never grants more than any window's limit in any span of it and its margin, whatever the leases", () => {
    const windows: RateWindow[] = [
      { limit: 15, seconds: 1 },
      { limit: 50, seconds: 10 },
    ];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 10 })), { maxLength: 300 }),
        (steps) => {
          let ms = 0;
          const leases = steps.map(([gap, want]) => {
            ms += gap;
            return [ms, want] as const;
          });
          const grants = replay(leases, windows).flatMap((d) =>
            d.granted > 0 ? [{ at: d.at, count: d.granted }] : [],
          );
          for (const { limit, seconds } of windows)
            expect(busiestSpan(grants, seconds * 1000 + M)).toBeLessThanOrEqual(limit);
        },
      ),
    );
  });

  it("keeps only the grants still inside the longest window", () => {
    const grants: Grant[] = [
      { at: T0, count: 1 },
      { at: T0 + 500, count: 2 },
      { at: T0 + 1_500, count: 3 },
    ];
    expect(dropExpired(grants, T0 + 500 + 1_000 + M, perSecond)).toEqual([{ at: T0 + 1_500, count: 3 }]);
    expect(dropExpired(grants, T0 + 1_500 + 1_000 + M, perSecond)).toEqual([]);
  });
});
