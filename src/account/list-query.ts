import * as z from "zod";
import { decodeCursor, encodeCursor, invalidCursor, limitParam } from "../http/paging";
import { parseQuery } from "../http/query";

// The query of the batch list. Its cursor (http/paging.ts) carries "b:<createdAt>|<id>"
// of the last batch shown.

export const MAX_LIST_LIMIT = 100;
const DEFAULT_LIMIT = 20;
const PREFIX = "b:";
const CURSOR_BODY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export const listQuerySchema = z.strictObject({
  limit: limitParam(MAX_LIST_LIMIT),
  cursor: z.string().optional(),
});

/** Where a page of the list starts: after the batch (createdAt, id), newest first. */
export interface ListPage {
  limit: number;
  after: { createdAt: string; id: string } | null;
}

export const encodeListCursor = (createdAt: string, id: string): string => encodeCursor(`${PREFIX}${createdAt}|${id}`);

function decodeListCursor(cursor: string): ListPage["after"] {
  const decoded = decodeCursor(cursor, 120);
  const match = decoded?.startsWith(PREFIX) ? CURSOR_BODY.exec(decoded.slice(PREFIX.length)) : null;
  return match ? { createdAt: match[1]!, id: match[2]! } : null;
}

/** The page a list request asks for, or a 400 `invalid_query` naming each bad parameter. */
export function parseListQuery(query: Record<string, string>): ListPage {
  const { limit = DEFAULT_LIMIT, cursor } = parseQuery(listQuerySchema, query);
  if (cursor === undefined) return { limit, after: null };
  const after = decodeListCursor(cursor);
  if (after === null) throw invalidCursor();
  return { limit, after };
}
