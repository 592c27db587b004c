import * as z from "zod";
import { badRequest } from "./errors";
import { describeErrors, fieldErrorOf } from "./field-errors";

/** A query string checked by `schema`, or a 400 `invalid_query` naming each bad parameter. */
export function parseQuery<T extends z.ZodType>(schema: T, query: Record<string, string>): z.infer<T> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => fieldErrorOf(issue, "unknown query parameter"));
  throw badRequest("invalid_query", `Invalid query: ${describeErrors(errors)}.`, errors);
}

/** The query parameters a GET route takes: the names of the schema its handler parses them with. */
export type QueryParameters = z.ZodObject;

/**
 * The one rule for every GET route's query (routes/declare.ts applies it): a parameter the route does
 * not take is a 400 `invalid_query` naming it, said as parseQuery says it. Only names are checked here;
 * each handler parses the values with its own schema.
 */
export function knownParameters(taken: QueryParameters | undefined): (query: Record<string, string>) => void {
  const names = z.strictObject(
    Object.fromEntries(Object.keys(taken?.shape ?? {}).map((name) => [name, z.string().optional()])),
  );
  return (query) => {
    parseQuery(names, query);
  };
}

/** A JSON body checked by `schema`, or a 400 `invalid_request` naming each bad field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => fieldErrorOf(issue));
  throw badRequest("invalid_request", `Invalid body: ${describeErrors(errors)}.`, errors);
}
