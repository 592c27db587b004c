import type * as z from "zod";
import { badRequest } from "./errors";
import type { FieldError } from "./problem";

/** A query string checked by `schema`, or a 400 `invalid_query` naming each bad parameter. */
export function parseQuery<T extends z.ZodType>(schema: T, query: Record<string, string>): z.infer<T> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const errors: FieldError[] = parsed.error.issues.map((issue) =>
    issue.code === "unrecognized_keys"
      ? { path: issue.keys.join(", "), message: "unknown query parameter" }
      : { path: issue.path.join("."), message: issue.message },
  );
  throw badRequest("invalid_query", `Invalid query: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}.`, errors);
}
