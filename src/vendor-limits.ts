/** A vendor's published limit: at most `limit` calls in any span of `seconds`. */
export interface RateWindow {
  limit: number;
  seconds: number;
}

/** The vendors whose calls the governor budgets: every source that calls a vendor's API with our key. */
export const GOVERNED_VENDORS = ["hunter", "pdl", "apollo", "prospeo", "zerobounce", "neverbounce"] as const;
export type GovernedVendor = (typeof GOVERNED_VENDORS)[number];

/**
 * Each vendor's published limits on the one endpoint we call, per API key, as read
 * from its documentation (2026-11). A plan with other limits overrides them with
 * VENDOR_RATE_LIMITS (README "Configuration").
 * - hunter: Email Finder, 15/s and 500/min (Hunter's API reference; its Email Verifier,
 *   which we do not call, has 10/s and 300/min).
 * - pdl: Person Enrichment, 100/min on a paid plan (fixed minute windows, `x-ratelimit-*`; free plans less).
 * - apollo: People Match, 1,000/min on paid plans.
 * - prospeo: Enrich Person, 5/s and 300/min on Starter and Growth (Pro: 30/s, 1,800/min).
 * - zerobounce: Validate V2, 50,000 per 10 s (a 1-minute block past it).
 * - neverbounce: Single Check publishes no figure; 10/s is an assumption, answered by its throttle if wrong.
 */
export const PUBLISHED_LIMITS: Record<GovernedVendor, readonly RateWindow[]> = {
  hunter: [
    { limit: 15, seconds: 1 },
    { limit: 500, seconds: 60 },
  ],
  pdl: [{ limit: 100, seconds: 60 }],
  apollo: [{ limit: 1_000, seconds: 60 }],
  prospeo: [
    { limit: 5, seconds: 1 },
    { limit: 300, seconds: 60 },
  ],
  zerobounce: [{ limit: 50_000, seconds: 10 }],
  neverbounce: [{ limit: 10, seconds: 1 }],
};
