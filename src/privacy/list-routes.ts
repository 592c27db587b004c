// The two lists of keyed hashes, under /v2/{environment}/privacy: the do-not-enrich list (suppressions) and
// the do-not-deliver list (contact values reported through POST …/feedback), each listed newest first and
// its keys removed alike (docs/storage.md, suppressions and do_not_deliver): one declaration serves both.
import * as z from "zod";
import { callerOf } from "../middleware/caller";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, keyRequired, unknownEnvironment } from "../openapi/common";
import { requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { deliverAgain, listDoNotDeliver, listSuppressions, unsuppress } from "./operations";
import { doNotDeliverKeySchema, doNotDeliverListSchema, suppressionKeySchema, suppressionListSchema } from "./schemas";
import { keyedHashPaging } from "./storage/keyed-hash-list";

// Its rate limit's fields are added by the document (openapi/rate-limit-docs.ts), as to every limited route.

interface ListDoors {
  path: string;
  paging: (typeof keyedHashPaging)[keyof typeof keyedHashPaging];
  keySchema: z.ZodString;
  /** The document's words (dropped from the Worker's build with OPENAPI_METADATA, as every route's docs). */
  list: { operationId: string; summary: string; description: string; schema: () => z.ZodType } | false;
  remove: { operationId: string; summary: string; description?: string } | false;
  read: typeof listSuppressions | typeof listDoNotDeliver;
  removeKey: typeof unsuppress;
}

// Query values arrive as strings, which the route's schema parses; the document says what they mean.
// Documentation only: called only inside a route's docs, so the Worker's build drops it (routes/declare.ts).
function documentedListQuery(paging: ListDoors["paging"]) {
  return paging.schema.extend({
    limit: z
      .int()
      .min(1)
      .max(paging.max)
      .default(paging.defaultLimit)
      .meta({ description: `Entries per page, 1 to ${paging.max}.`, example: 20 }),
    cursor: paging.schema.shape.cursor.meta({ description: "The nextCursor of the previous page, unchanged." }),
  });
}

/** GET <path> (one page, newest first) and DELETE <path>/{key}, as both lists answer them. */
function keyedHashListRoutes(doors: ListDoors): DeclaredRoute[] {
  const { paging } = doors;
  const list = declareRoute({
    route: {
      method: "get",
      path: doors.path,
      query: paging.schema,
      middleware: [rateLimit(doors.read, { parallel: true })],
    },
    docs: OPENAPI_METADATA &&
      doors.list && {
        operationId: doors.list.operationId,
        tags: ["Privacy"],
        summary: doors.list.summary,
        description: doors.list.description,
        security: keyRequired,
        request: { params: environmentParams(), query: documentedListQuery(paging) },
        responses: {
          200: {
            description: "One page of the list.",
            headers: requestIdHeaders(),
            content: { "application/json": { schema: doors.list.schema() } },
          },
          400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
          ...authProblems(),
          404: unknownEnvironment(),
          500: internalError(),
        },
      },
    handler: async (c) => c.json(await doors.read(callerOf(c), c.req.query()), 200),
  });
  const remove = declareRoute({
    route: {
      method: "delete",
      path: `${doors.path}/{key}`,
      middleware: [rateLimit(doors.removeKey)],
    },
    docs: OPENAPI_METADATA &&
      doors.remove && {
        operationId: doors.remove.operationId,
        tags: ["Privacy"],
        summary: doors.remove.summary,
        ...(doors.remove.description === undefined ? {} : { description: doors.remove.description }),
        security: keyRequired,
        request: { params: environmentParams().extend({ key: doors.keySchema }) },
        responses: {
          204: { description: "Removed.", headers: requestIdHeaders() },
          ...authProblems(),
          404: problem(["not_found"], "The key is not on the list"),
          500: internalError(),
        },
      },
    handler: async (c) => {
      await doors.removeKey(callerOf(c), c.req.param("key"));
      return c.body(null, 204);
    },
  });
  return [list, remove];
}

/** The do-not-enrich list's routes, then the do-not-deliver list's, in the order they are served and documented. */
export const keyedHashListRouteDeclarations: readonly DeclaredRoute[] = [
  ...keyedHashListRoutes({
    path: "/privacy/suppressions",
    paging: keyedHashPaging.suppressions,
    keySchema: suppressionKeySchema,
    list: OPENAPI_METADATA && {
      operationId: "listSuppressions",
      summary: "List the do-not-enrich list, newest first",
      description: "Hashed keys and dates, never the identifiers.",
      schema: suppressionListSchema,
    },
    remove: OPENAPI_METADATA && {
      operationId: "removeSuppression",
      summary: "Remove a key from the do-not-enrich list",
    },
    read: listSuppressions,
    removeKey: unsuppress,
  }),
  ...keyedHashListRoutes({
    path: "/privacy/do-not-deliver",
    paging: keyedHashPaging.do_not_deliver,
    keySchema: doNotDeliverKeySchema,
    list: OPENAPI_METADATA && {
      operationId: "listDoNotDeliver",
      summary: "List the do-not-deliver list, newest first",
      description:
        "The contact values you reported through POST …/feedback, which no later item returns to you: hashed keys and dates, never the values.",
      schema: doNotDeliverListSchema,
    },
    remove: OPENAPI_METADATA && {
      operationId: "removeDoNotDeliver",
      summary: "Remove a key from the do-not-deliver list",
      description:
        "Later items may return the value again (and are charged for it); a report already refunded stays refunded.",
    },
    read: listDoNotDeliver,
    removeKey: deliverAgain,
  }),
];
