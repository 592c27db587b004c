// What the account tells the consumer of its finders' records, for the learned order
// (src/enrichment/waterfall-order.ts), read with the suppression check: no round trip of its own.

/** One source's record: items asked, hits, and hits with an email verified valid. */
export interface SourceRecord {
  calls: number;
  hits: number;
  valid: number;
}

/** Each finder's record over the last 30 days, and per company domain of the group asking. */
export interface Learned {
  sources: Record<string, SourceRecord>;
  domains: Record<string, Record<string, SourceRecord>>;
}
