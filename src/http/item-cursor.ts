import { decodeCursor, encodeCursor } from "./paging";

// A batch's items page by item index: the cursor carries "i:<next item index>".
const PREFIX = "i:";

export const encodeItemCursor = (nextIndex: number): string => encodeCursor(PREFIX + nextIndex);

/** The item index a cursor resumes at, or null when the cursor is not one of ours. */
export function decodeItemCursor(cursor: string): number | null {
  const decoded = decodeCursor(cursor, 40);
  if (decoded === null || !decoded.startsWith(PREFIX)) return null;
  const digits = decoded.slice(PREFIX.length);
  return /^(0|[1-9][0-9]{0,8})$/.test(digits) ? Number(digits) : null;
}
