import * as z from "zod";
import { decodeCursor } from "../batch/cursor";
import { ITEM_STATUSES, type ItemStatus } from "../batch/views";
import { badRequest } from "../http/errors";
import { parseQuery } from "../http/query";

export const MAX_PAGE_SIZE = 1000;

export const statusQuerySchema = z.strictObject({
  limit: z
    .string()
    .regex(/^\d+$/, { error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: `must be at least 1` })
        .max(MAX_PAGE_SIZE, { error: `must be at most ${MAX_PAGE_SIZE}` }),
    )
    .optional(),
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
  const fromIndex = cursor === undefined ? 0 : decodeCursor(cursor);
  if (fromIndex === null) {
    throw badRequest("invalid_query", "cursor is not valid: pass the nextCursor of a previous page unchanged.", [
      { path: "cursor", message: "not a cursor this API issued" },
    ]);
  }
  return status ? { fromIndex, limit, status } : { fromIndex, limit };
}
