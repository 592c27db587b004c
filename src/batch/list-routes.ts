// The caller's batches: GET /v2/{environment}/person/contact-info.
import * as z from "zod";
import { batchListPaging } from "../account/list-query";
import { batchListSchema } from "../account/views";
import { notInTheWorker, once } from "../base/once";
import { callerOf } from "../middleware/caller";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, keyRequired, unknownEnvironment } from "../openapi/common";
import { requestIdHeader } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { listBatchPage } from "./read-operations";

// Query values arrive as strings, which batchListPaging.schema parses; the document says what they
// mean. Extended from the parsing schema, so a parameter it gains is documented too.
const documentedListQuery = OPENAPI_METADATA
  ? once(() =>
      batchListPaging.schema.extend({
        limit: z
          .int()
          .min(1)
          .max(batchListPaging.max)
          .default(batchListPaging.defaultLimit)
          .meta({ description: `Batches per page, 1 to ${batchListPaging.max}.`, example: 20 }),
        cursor: batchListPaging.schema.shape.cursor.meta({
          description: "The nextCursor of the previous page, unchanged.",
        }),
      }),
    )
  : notInTheWorker;

const listBatches = declareRoute({
  route: {
    method: "get",
    path: "/person/contact-info",
    query: batchListPaging.schema,
    middleware: [rateLimit(listBatchPage, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "listContactInfoBatches",
    tags: ["Contact info"],
    summary: "List your batches, newest first",
    description:
      "The batches of your customer account in this environment (any of its keys), newest first; a batch appears within seconds of its 202, a deleted one no more.",
    security: keyRequired,
    request: { params: environmentParams(), query: documentedListQuery() },
    responses: {
      200: {
        description: "One page of batches.",
        headers: {
          "x-request-id": requestIdHeader(),
        },
        content: { "application/json": { schema: batchListSchema() } },
      },
      400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
      ...authProblems(),
      404: unknownEnvironment(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await listBatchPage(caller, c.req.query()), 200);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const batchListRoutes: readonly DeclaredRoute[] = [listBatches];
