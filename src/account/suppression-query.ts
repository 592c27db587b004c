import * as z from "zod";
import { decodeCursor, encodeCursor, invalidCursor, limitParam } from "../http/paging";
import { parseQuery } from "../http/query";

// The query of the suppression list, paged like the batch list: its cursor
// (http/paging.ts) carries "s:<createdAt>|<key>" of the last entry shown.

export const MAX_SUPPRESSION_LIMIT = 100;
const DEFAULT_LIMIT = 20;
const PREFIX = "s:";
const CURSOR_BODY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{64})$/;

export const suppressionQuerySchema = z.strictObject({
  limit: limitParam(MAX_SUPPRESSION_LIMIT),
  cursor: z.string().optional(),
});

/** Where a page of the list starts: after the entry (createdAt, key), newest first. */
export interface SuppressionPage {
  limit: number;
  after: { createdAt: string; key: string } | null;
}

export const encodeSuppressionCursor = (createdAt: string, key: string): string => encodeCursor(`${PREFIX}${createdAt}|${key}`);

/** The page a list request asks for, or a 400 `invalid_query` naming each bad parameter. */
export function parseSuppressionQuery(query: Record<string, string>): SuppressionPage {
  const { limit = DEFAULT_LIMIT, cursor } = parseQuery(suppressionQuerySchema, query);
  if (cursor === undefined) return { limit, after: null };
  const decoded = decodeCursor(cursor, 140);
  const match = decoded?.startsWith(PREFIX) ? CURSOR_BODY.exec(decoded.slice(PREFIX.length)) : null;
  if (!match) throw invalidCursor();
  return { limit, after: { createdAt: match[1]!, key: match[2]! } };
}
