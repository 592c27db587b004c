import * as z from "zod";
import { badRequest } from "./errors";
import { parseQuery } from "./query";

// What the paged routes (the batch list, the suppression list, a batch's items) share: the `limit`
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

/** Where a page of a newest-first list starts: after the entry (createdAt, id). */
export interface NewestFirstPage {
  limit: number;
  after: { createdAt: string; id: string } | null;
}

const DEFAULT_LIMIT = 20;

/**
 * A list shown newest first and paged by its last entry: `limit`, and a cursor carrying
 * "<prefix><createdAt>|<id>" of the last entry shown. The prefix tells one list's cursors
 * from another's; `id` is the entry's id as `idPattern` (a regex source) matches it.
 */
export function newestFirstPaging(prefix: string, idPattern: string, max: number) {
  const body = new RegExp(`^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z)\\|(${idPattern})$`);
  const schema = z.strictObject({ limit: limitParam(max), cursor: z.string().optional() });
  const encode = (createdAt: string, id: string): string => encodeCursor(`${prefix}${createdAt}|${id}`);
  return {
    max,
    defaultLimit: DEFAULT_LIMIT,
    schema,
    encode,
    /** The page a request asks for, or a 400 `invalid_query` naming each bad parameter (or the cursor). */
    parse(query: Record<string, string>): NewestFirstPage {
      const { limit = DEFAULT_LIMIT, cursor } = parseQuery(schema, query);
      if (cursor === undefined) return { limit, after: null };
      const decoded = decodeCursor(cursor, 160);
      const match = decoded?.startsWith(prefix) ? body.exec(decoded.slice(prefix.length)) : null;
      if (!match) throw invalidCursor();
      return { limit, after: { createdAt: match[1]!, id: match[2]! } };
    },
    /**
     * One page of a table's rows (those `where` keeps), newest first by (created_at, `id`), after
     * the page's entry: the rows shown, and the cursor of the page after (null at the end). One
     * search of an index on (created_at DESC, id DESC), reading one row past the page.
     */
    rows<Row extends Record<string, SqlStorageValue> & { created_at: string }>(
      sql: SqlStorage,
      query: { columns: string; from: string; id: keyof Row & string; where?: string },
      { limit, after }: NewestFirstPage,
    ): { shown: Row[]; nextCursor: string | null } {
      const rows = sql
        .exec<Row>(
          `SELECT ${query.columns} FROM ${query.from}
           WHERE ${query.where ?? "true"} AND (? IS NULL OR created_at < ? OR (created_at = ? AND ${query.id} < ?))
           ORDER BY created_at DESC, ${query.id} DESC LIMIT ?`,
          after?.createdAt ?? null,
          after?.createdAt ?? null,
          after?.createdAt ?? null,
          after?.id ?? null,
          limit + 1,
        )
        .toArray();
      const shown = rows.slice(0, limit);
      const last = shown[shown.length - 1];
      return {
        shown,
        nextCursor: rows.length > limit && last ? encode(last.created_at, String(last[query.id])) : null,
      };
    },
  };
}
