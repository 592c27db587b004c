import * as z from "zod";
import { badRequest } from "./errors";

// What the paged routes (the batch list, a batch's items) share: the `limit`
// parameter and opaque cursors. A cursor is base64url of a text only this API
// writes, so its format can change (say, to add a filter) without breaking clients.

/** `limit` as a query parameter: a whole number from 1 to `max`. */
export const limitParam = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `must be a whole number from 1 to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: "must be at least 1" })
        .max(max, { error: `must be at most ${max}` }),
    )
    .optional();

export function encodeCursor(text: string): string {
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The text a cursor carries, or null when it is not base64url of at most `maxLength` characters. */
export function decodeCursor(cursor: string, maxLength: number): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor) || cursor.length > maxLength) return null;
  try {
    return atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
}

/** The 400 for a cursor this API did not issue. */
export const invalidCursor = () =>
  badRequest("invalid_query", "cursor is not valid: pass the nextCursor of a previous page unchanged.", [
    { path: "cursor", message: "not a cursor this API issued" },
  ]);
