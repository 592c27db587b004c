// The most pages an object's database has been seen to use, kept in the object's own storage (a
// row of its hidden key-value table): the file never shrinks, and SQLite adds a page only
// when no free one is left, so the file is about this many pages. The scrub (scrub.ts) fills
// the free pages up to it; workerd tells no page count (databaseSize counts only pages in use).
// About: a statement may use pages for a moment (splitting and merging the tree) that no one
// sees in use after it, so the fillers go past the high water by a margin (seen: 2 pages past
// 23 for a batch of 40 items; the margin is at least 64 pages, or 5%).
const HIGH_WATER_KEY = "scrub:database-high-water";
const highWaters = new WeakMap<DurableObjectStorage, number>();

/**
 * What every writer calls after a write that may have grown the database: notes how large it
 * is now, so a later scrub reaches every page the file holds. Written only when it grew.
 */
export function noteSizeForScrub(storage: DurableObjectStorage): void {
  const size = storage.sql.databaseSize;
  const known = highWaters.get(storage) ?? storage.kv.get<number>(HIGH_WATER_KEY) ?? 0;
  if (size > known) storage.kv.put(HIGH_WATER_KEY, size);
  highWaters.set(storage, Math.max(size, known));
}

/** The high water this object noted since it started (the scrub notes it first), if any. */
export const noticedHighWater = (storage: DurableObjectStorage): number | undefined => highWaters.get(storage);
