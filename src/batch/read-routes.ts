// One batch: read it, or cancel and erase it. GET and DELETE /v2/{environment}/person/contact-info/{id}.
import * as z from "zod";
import { batchIdSchema } from "../base/batch-id";
import { notInTheWorker, once } from "../base/once";
import { batchPageJson, batchPageSchema } from "../contact-info/batch-views";
import { MAX_PAGE_SIZE, statusQuerySchema } from "../contact-info/status-query";
import { callerOf } from "../middleware/caller";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, keyRequired } from "../openapi/common";
import { batchStatusExample } from "../openapi/examples";
import { requestIdHeader } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { deleteBatch as deleteBatchOperation, readBatchPage } from "./read-operations";

export const batchParams = OPENAPI_METADATA
  ? once(() => environmentParams().extend({ id: batchIdSchema }))
  : notInTheWorker;

const noSuchBatchProblem = OPENAPI_METADATA
  ? once(() =>
      problem(
        ["not_found"],
        "No such batch for this customer and environment (another customer's batch looks the same)",
      ),
    )
  : notInTheWorker;

// Query values arrive as strings, which statusQuerySchema parses; the document says what
// they mean (limit is an integer), from the same constants and enums. Extended from the
// parsing schema, so a parameter it gains is documented too.
const documentedStatusQuery = OPENAPI_METADATA
  ? once(() =>
      statusQuerySchema.extend({
        limit: z
          .int()
          .min(1)
          .max(MAX_PAGE_SIZE)
          .default(MAX_PAGE_SIZE)
          .meta({ description: `Items per page, 1 to ${MAX_PAGE_SIZE}.`, example: 100 }),
        cursor: statusQuerySchema.shape.cursor.meta({ description: "The nextCursor of the previous page, unchanged." }),
        status: statusQuerySchema.shape.status.meta({
          description: "Only items in this status (their index stays their position in the whole batch).",
          example: "completed",
        }),
      }),
    )
  : notInTheWorker;

const getBatch = declareRoute({
  route: {
    method: "get",
    path: "/person/contact-info/{id}",
    query: statusQuerySchema,
    middleware: [rateLimit(readBatchPage, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getContactInfoBatch",
    tags: ["Contact info"],
    summary: "Read a batch: counts and per-item contact data",
    description: "Items come in submission order, a page at a time.",
    security: keyRequired,
    request: { params: batchParams(), query: documentedStatusQuery() },
    responses: {
      200: {
        description: "The batch.",
        headers: {
          "x-request-id": requestIdHeader(),
        },
        content: { "application/json": { schema: batchPageSchema(), example: batchStatusExample } },
      },
      400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
      ...authProblems(),
      404: noSuchBatchProblem(),
      410: problem(
        ["batch_expired", "batch_deleted"],
        "The batch's data was deleted: at the end of its retention period, or by its owner",
      ),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    const page = await readBatchPage(caller, c.req.param("id"), c.req.query());
    // The items come pre-rendered as JSON (batchPageJson): the body is the documented BatchStatus.
    return c.body(batchPageJson(page), 200, { "content-type": "application/json" });
  },
});

const deleteBatch = declareRoute({
  route: {
    method: "delete",
    path: "/person/contact-info/{id}",
    middleware: [rateLimit(deleteBatchOperation)],
  },
  docs: OPENAPI_METADATA && {
    operationId: "deleteContactInfoBatch",
    tags: ["Contact info"],
    summary: "Cancel a batch and erase its data",
    description:
      "Items still pending are never processed, every item with its input and results is deleted now, and so is every CRM sync made from the batch (GET …/crm-syncs/{id} answers 404), and no webhook is sent afterwards; only a tombstone (id, counts, dates) remains, so reading the batch answers 410 batch_deleted. Deleting again answers 204. Usage already counted stays.",
    security: keyRequired,
    request: { params: batchParams() },
    responses: {
      204: {
        description: "Deleted (or deleted before).",
        headers: {
          "x-request-id": requestIdHeader(),
        },
      },
      ...authProblems(),
      404: noSuchBatchProblem(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    await deleteBatchOperation(callerOf(c), c.req.param("id"));
    return c.body(null, 204);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const batchRoutes: readonly DeclaredRoute[] = [getBatch, deleteBatch];
