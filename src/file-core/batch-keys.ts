// The Idempotency-Keys of a file's batches, the same from the console page and `npm run enrich`:
// made from the items sent (the SHA-256 of JSON.stringify(items), hex), so the same rows sent again
// within the API's idempotency window (24 h) answer the batches already made, from either door,
// and are never charged again.

import { DEFAULT_MAX_BATCH_ITEMS } from "../base/defaults";

/** The API's default MAX_BATCH_ITEMS: a file's valid rows go in batches of this many. */
export const BATCH_ITEMS = DEFAULT_MAX_BATCH_ITEMS;

/** The key of batch `index` (0-based) of `count` for the items whose hash is `itemsHash`. */
export const batchKey = (itemsHash: string, index: number, count: number): string =>
  `file-${itemsHash.slice(0, 32)}-${index + 1}-of-${count}`;
