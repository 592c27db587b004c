import * as z from "zod";
import { decodeItemCursor } from "../http/item-cursor";
import { invalidCursor, limitParam } from "../http/paging";
import { parseQuery } from "../http/query";
import { ITEM_STATUSES, type ItemStatus } from "./batch-views";

export const MAX_PAGE_SIZE = 1000;

export const statusQuerySchema = z.strictObject({
  limit: limitParam(MAX_PAGE_SIZE),
  cursor: z.string().optional(),
  status: z.enum(ITEM_STATUSES, { error: `must be one of ${ITEM_STATUSES.join(", ")}` }).optional(),
});

export interface StatusPage {
  fromIndex: number;
  limit: number;
  status?: ItemStatus;
}

/** The page a status request asks for, or a 400 `invalid_query` naming each bad parameter. */
export function parseStatusQuery(query: Record<string, string>): StatusPage {
  const { limit = MAX_PAGE_SIZE, cursor, status } = parseQuery(statusQuerySchema, query);
  const fromIndex = cursor === undefined ? 0 : decodeItemCursor(cursor);
  if (fromIndex === null) throw invalidCursor();
  return status ? { fromIndex, limit, status } : { fromIndex, limit };
}
