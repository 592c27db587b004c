// The caller's batches and usage: GET and DELETE under /v2/{environment}/person/contact-info, GET /me/usage.
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { listQuerySchema, MAX_LIST_LIMIT } from "../account/list-query";
import { MAX_USAGE_DAYS, usageQuerySchema } from "../account/usage-query";
import { batchListSchema, usageReportSchema } from "../account/views";
import { batchIdSchema } from "../batch-id";
import { authProblems, environmentParams, internalError, keyRequired, rateLimited, unknownEnvironment } from "./common";
import { exampleUsage, rateLimitHeaders, requestIdHeader } from "./headers";
import { problem } from "./problems";

// Query values arrive as strings, which the route's schema parses; the document says what they mean.
const documentedListQuery = z.object({
  limit: z
    .int()
    .min(1)
    .max(MAX_LIST_LIMIT)
    .default(20)
    .meta({ description: `Batches per page, 1 to ${MAX_LIST_LIMIT}.`, example: 20 }),
  cursor: listQuerySchema.shape.cursor.meta({ description: "The nextCursor of the previous page, unchanged." }),
});
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(check: Same<A, B>) => check;
same<keyof typeof documentedListQuery.shape, keyof typeof listQuerySchema.shape>(true);

const batchId = batchIdSchema;

export function registerAccount(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/v2/{environment}/person/contact-info",
    operationId: "listContactInfoBatches",
    tags: ["Contact info"],
    summary: "List your batches, newest first",
    description:
      "The batches of your customer account in this environment (any of its keys), newest first; a batch appears within seconds of its 202, a deleted one no more. Rate limited as contact_info_status (Tier 4).",
    security: keyRequired,
    request: { params: environmentParams, query: documentedListQuery },
    responses: {
      200: {
        description: "One page of batches.",
        headers: { "x-request-id": requestIdHeader, ...rateLimitHeaders("contact_info_status", exampleUsage(100, 1, 60)) },
        content: { "application/json": { schema: batchListSchema } },
      },
      400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
      ...authProblems,
      404: unknownEnvironment,
      429: rateLimited("contact_info_status", 100),
      500: internalError,
    },
  });

  r.registerPath({
    method: "delete",
    path: "/v2/{environment}/person/contact-info/{id}",
    operationId: "deleteContactInfoBatch",
    tags: ["Contact info"],
    summary: "Cancel a batch and erase its data",
    description:
      "Items still pending are never processed, every item with its input and results is deleted now, and no webhook is sent afterwards; only a tombstone (id, counts, dates) remains, so reading the batch answers 410 batch_deleted. Deleting again answers 204. Usage already counted stays. Rate limited as contact_info_request (Tier 3).",
    security: keyRequired,
    request: { params: environmentParams.extend({ id: batchId }) },
    responses: {
      204: {
        description: "Deleted (or deleted before).",
        headers: { "x-request-id": requestIdHeader, ...rateLimitHeaders("contact_info_request", exampleUsage(50, 1, 60)) },
      },
      ...authProblems,
      404: problem(["not_found"], "No such batch for this customer and environment (another customer's batch looks the same)"),
      429: rateLimited("contact_info_request", 50),
      500: internalError,
    },
  });

  r.registerPath({
    method: "get",
    path: "/v2/{environment}/me/usage",
    operationId: "getUsage",
    tags: ["Usage"],
    summary: "Items you had processed, per UTC day",
    description: `Each item counted once, on the UTC day it finished (completed or failed; items failed at submission on the submission day), for your customer account in this environment, with the calls per data source. Deleting a batch does not remove its counted usage. At most ${MAX_USAGE_DAYS} days. Rate limited as rate_limits (Tier 4).`,
    security: keyRequired,
    request: { params: environmentParams, query: usageQuerySchema },
    responses: {
      200: {
        description: "Usage per day and in total.",
        headers: { "x-request-id": requestIdHeader, ...rateLimitHeaders("rate_limits", exampleUsage(100, 1, 60)) },
        content: { "application/json": { schema: usageReportSchema } },
      },
      400: problem(
        ["invalid_query"],
        `A date is not YYYY-MM-DD, from is after to, the range exceeds ${MAX_USAGE_DAYS} days, or a parameter is unknown`,
      ),
      ...authProblems,
      404: unknownEnvironment,
      429: rateLimited("rate_limits", 100),
      500: internalError,
    },
  });
}
