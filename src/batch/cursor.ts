// Cursors are opaque to callers: base64url of "i:<next item index>". Keeping the
// format private lets it change (say, to add a filter) without breaking clients.
const PREFIX = "i:";

export function encodeCursor(nextIndex: number): string {
  return btoa(PREFIX + nextIndex)
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The item index a cursor resumes at, or null when the cursor is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return null;
  let decoded: string;
  try {
    decoded = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  if (!decoded.startsWith(PREFIX)) return null;
  const digits = decoded.slice(PREFIX.length);
  if (!/^(0|[1-9][0-9]{0,8})$/.test(digits)) return null;
  return Number(digits);
}
