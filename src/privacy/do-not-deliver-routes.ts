// The do-not-deliver list (contact values reported through POST …/feedback): listed and removed
// as the do-not-enrich list is, under /v2/{environment}/privacy (docs/storage.md, do_not_deliver).
import * as z from "zod";
import { once } from "../base/once";
import { callerOf } from "../middleware/caller";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, keyRequired, unknownEnvironment } from "../openapi/common";
import { requestIdHeader } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { deliverAgain, listDoNotDeliver } from "./operations";
import { doNotDeliverPaging } from "./storage/do-not-deliver-list";
import { doNotDeliverKeySchema, doNotDeliverListSchema } from "./views";

// Query values arrive as strings, which the route's schema parses; the document says what they mean.
// Documentation only: made on first use, or on call (src/base/once.ts).
const documentedListQuery = /* @__PURE__ */ once(() =>
  doNotDeliverPaging.schema.extend({
    limit: z
      .int()
      .min(1)
      .max(doNotDeliverPaging.max)
      .default(doNotDeliverPaging.defaultLimit)
      .meta({ description: `Entries per page, 1 to ${doNotDeliverPaging.max}.`, example: 20 }),
    cursor: doNotDeliverPaging.schema.shape.cursor.meta({
      description: "The nextCursor of the previous page, unchanged.",
    }),
  }),
);

// Its rate limit's fields are added by the document (openapi/rate-limit-docs.ts), as to every limited route.
const headers = { "x-request-id": requestIdHeader };

const listDoNotDeliverRoute = declareRoute({
  route: {
    method: "get",
    path: "/privacy/do-not-deliver",
    query: doNotDeliverPaging.schema,
    middleware: [rateLimit("rate_limits", { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "listDoNotDeliver",
    tags: ["Privacy"],
    summary: "List the do-not-deliver list, newest first",
    description:
      "The contact values you reported through POST …/feedback, which no later item returns to you: hashed keys and dates, never the values.",
    security: keyRequired,
    request: { params: environmentParams(), query: documentedListQuery() },
    responses: {
      200: {
        description: "One page of the list.",
        headers,
        content: { "application/json": { schema: doNotDeliverListSchema() } },
      },
      400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
      ...authProblems(),
      404: unknownEnvironment,
      500: internalError,
    },
  },
  handler: async (c) => c.json(await listDoNotDeliver(callerOf(c), c.req.query()), 200),
});

const removeDoNotDeliverRoute = declareRoute({
  route: {
    method: "delete",
    path: "/privacy/do-not-deliver/{key}",
    middleware: [rateLimit("contact_info_request")],
  },
  docs: OPENAPI_METADATA && {
    operationId: "removeDoNotDeliver",
    tags: ["Privacy"],
    summary: "Remove a key from the do-not-deliver list",
    description:
      "Later items may return the value again (and are charged for it); a report already refunded stays refunded.",
    security: keyRequired,
    request: { params: environmentParams().extend({ key: doNotDeliverKeySchema }) },
    responses: {
      204: { description: "Removed.", headers },
      ...authProblems(),
      404: problem(["not_found"], "The key is not on the list"),
      500: internalError,
    },
  },
  handler: async (c) => {
    await deliverAgain(callerOf(c), c.req.param("key"));
    return c.body(null, 204);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const doNotDeliverRoutes: readonly DeclaredRoute[] = [listDoNotDeliverRoute, removeDoNotDeliverRoute];
