import type * as z from "zod";
import { badRequest } from "./errors";
import { describeErrors, fieldErrorOf } from "./field-errors";

/** A query string checked by `schema`, or a 400 `invalid_query` naming each bad parameter. */
export function parseQuery<T extends z.ZodType>(schema: T, query: Record<string, string>): z.infer<T> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => fieldErrorOf(issue, "unknown query parameter"));
  throw badRequest("invalid_query", `Invalid query: ${describeErrors(errors)}.`, errors);
}
