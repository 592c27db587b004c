import * as z from "zod";
import { badRequest } from "../http/errors";
import { parseQuery } from "../http/query";

// The query of the batch list. Cursors are opaque to callers, like the status
// route's: base64url of "b:<createdAt>|<id>" of the last batch shown.

export const MAX_LIST_LIMIT = 100;
const DEFAULT_LIMIT = 20;
const PREFIX = "b:";
const CURSOR_BODY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export const listQuerySchema = z.strictObject({
  limit: z
    .string()
    .regex(/^\d+$/, { error: `must be a whole number from 1 to ${MAX_LIST_LIMIT}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: "must be at least 1" })
        .max(MAX_LIST_LIMIT, { error: `must be at most ${MAX_LIST_LIMIT}` }),
    )
    .optional(),
  cursor: z.string().optional(),
});

/** Where a page of the list starts: after the batch (createdAt, id), newest first. */
export interface ListPage {
  limit: number;
  after: { createdAt: string; id: string } | null;
}

export function encodeListCursor(createdAt: string, id: string): string {
  return btoa(`${PREFIX}${createdAt}|${id}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeListCursor(cursor: string): ListPage["after"] {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(cursor)) return null;
  let decoded: string;
  try {
    decoded = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const match = decoded.startsWith(PREFIX) ? CURSOR_BODY.exec(decoded.slice(PREFIX.length)) : null;
  return match ? { createdAt: match[1]!, id: match[2]! } : null;
}

/** The page a list request asks for, or a 400 `invalid_query` naming each bad parameter. */
export function parseListQuery(query: Record<string, string>): ListPage {
  const { limit = DEFAULT_LIMIT, cursor } = parseQuery(listQuerySchema, query);
  if (cursor === undefined) return { limit, after: null };
  const after = decodeListCursor(cursor);
  if (after === null) {
    throw badRequest("invalid_query", "cursor is not valid: pass the nextCursor of a previous page unchanged.", [
      { path: "cursor", message: "not a cursor this API issued" },
    ]);
  }
  return { limit, after };
}
