import { noteSizeForScrub, noticedHighWater } from "./high-water";

// Erasure that leaves nothing readable in the object's SQLite file. workerd refuses
// PRAGMA secure_delete (and VACUUM, freelist_count, page_count), so a deleted row's
// bytes would stay in the file's free pages: personal columns are overwritten with
// zeros first, and every free page is then taken by a row of zeros and freed again.

// The items' columns that hold personal data: what the caller sent (and its hashes), and what was found.
const PERSONAL_COLUMNS = [
  "external_id",
  "input",
  "person",
  "person_key",
  "hashes",
  "emails",
  "phones",
  "found_earlier",
] as const;

// A filler row's zeros: with its record header and status, a payload of 4,061 bytes, the
// most a 4,096-byte table leaf page holds of a row without an overflow page.
const FILLER_BYTES = 4_036;
const PAGE_BYTES = 4_096;
const MARGIN_PAGES = 64;

/**
 * The same number of zero bytes as `column` holds (as a blob: same length, so
 * the same record size): a record of unchanged size is rewritten in place by
 * SQLite (btreeOverwriteCell), overflow pages included.
 */
export const zeroed = (column: string) =>
  `CASE WHEN ${column} IS NULL THEN NULL ELSE zeroblob(length(CAST(${column} AS BLOB))) END`;

/**
 * Deletes every item, within the caller's transaction. Its personal data is
 * overwritten with zeros first (see zeroed). Older versions of the rows (a row
 * that grew when its result was recorded moved, leaving its old bytes behind)
 * are in free pages: rows of zeros, one a page, take every free page (until more
 * pages are in use than the file has been seen to hold, by the margin), and are
 * deleted in turn. A free page that SQLite makes a free-list trunk may still keep
 * part of an older row past its first bytes (seen in tests); no page a table or an
 * index uses does.
 */
export function deleteItems(storage: DurableObjectStorage): void {
  const { sql } = storage;
  sql.exec(`UPDATE items SET ${ZERO_PERSONAL_COLUMNS}`);
  noteSizeForScrub(storage);
  sql.exec("DELETE FROM items");
  fillFreePages(storage);
}

/**
 * Erases some items and keeps them, within the caller's transaction: their
 * personal data is overwritten with zeros (see zeroed), then replaced by the
 * erased marker (an empty input, no results, `erased_at`). Older versions of
 * those rows may still sit in the unused parts of pages the table goes on using
 * (a freed cell, the gap a page rebuild left; seen in the black-box test), which
 * only a rewrite reaches: the rows are copied aside, all deleted, the free pages
 * filled and freed as deleteItems does, and the rows put back into those zeroed
 * pages. So this costs about what a delete of the batch does.
 */
export function eraseItemsInPlace(storage: DurableObjectStorage, indexes: readonly number[], erasedAt: string): void {
  const { sql } = storage;
  const among = "WHERE idx IN (SELECT value FROM json_each(?))";
  sql.exec(`UPDATE items SET ${ZERO_PERSONAL_COLUMNS} ${among}`, JSON.stringify(indexes));
  sql.exec(
    `UPDATE items SET external_id = NULL, input = '{}', person = NULL, person_key = NULL, hashes = NULL, emails = NULL,
       phones = NULL, found_earlier = NULL, erased_at = ? ${among}`,
    erasedAt,
    JSON.stringify(indexes),
  );
  sql.exec("CREATE TABLE items_rewrite AS SELECT * FROM items");
  noteSizeForScrub(storage);
  sql.exec("DELETE FROM items");
  fillFreePages(storage);
  sql.exec("INSERT INTO items SELECT * FROM items_rewrite ORDER BY idx");
  sql.exec("DROP TABLE items_rewrite");
}

const ZERO_PERSONAL_COLUMNS = PERSONAL_COLUMNS.map((column) => `${column} = ${zeroed(column)}`).join(", ");

/** Rows of zeros, one a page, take the free pages (to the high water and the margin), and are deleted in turn. Negative indexes: no item has one. */
function fillFreePages(storage: DurableObjectStorage): void {
  fillFreePagesWith(storage, (n, bytes) =>
    storage.sql.exec("INSERT INTO items (idx, input, status) VALUES (?, zeroblob(?), 'failed')", -1 - n, bytes),
  );
  storage.sql.exec("DELETE FROM items WHERE idx < 0");
}

/**
 * The same fill for another object's database (the WebhookHub's): `insertFiller` adds filler row `n` of
 * `bytes` zeros to a table of the caller's, which the caller then empties, within its transaction.
 */
export function fillFreePagesWith(
  storage: DurableObjectStorage,
  insertFiller: (n: number, bytes: number) => void,
): void {
  const { sql } = storage;
  const highWater = noticedHighWater(storage) ?? sql.databaseSize;
  const fill = highWater + Math.max(MARGIN_PAGES * PAGE_BYTES, highWater / 20);
  for (let n = 0; sql.databaseSize < fill && n <= fill / PAGE_BYTES; n++) insertFiller(n, FILLER_BYTES);
}
