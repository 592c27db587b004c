/**
 * A vendor's published limit: at most `limit` calls in any span of `seconds`. Each vendor
 * declares its own (src/enrichment/vendor.ts); VENDOR_RATE_LIMITS overrides them.
 */
export interface RateWindow {
  limit: number;
  seconds: number;
}
