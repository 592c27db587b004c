// Erasure of a person and the do-not-enrich list: under /v2/{environment}/privacy.
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { MAX_SUPPRESSION_LIMIT, suppressionQuerySchema } from "../account/suppression-query";
import { erasureRequestSchema, MAX_SUPPRESSIONS_PER_REQUEST, suppressionRequestSchema } from "../contact-info/privacy-requests";
import { erasureReceiptSchema, suppressionKeySchema, suppressionListSchema, suppressionsAddedSchema } from "../contact-info/privacy-views";
import { authProblems, environmentParams, internalError, keyRequired, rateLimited, unknownEnvironment } from "./common";
import { exampleUsage, header, rateLimitHeaders, requestIdHeader } from "./headers";
import { problem } from "./problems";

// Query values arrive as strings, which the route's schema parses; the document says what they mean.
const documentedListQuery = z.object({
  limit: z
    .int()
    .min(1)
    .max(MAX_SUPPRESSION_LIMIT)
    .default(20)
    .meta({ description: `Entries per page, 1 to ${MAX_SUPPRESSION_LIMIT}.`, example: 20 }),
  cursor: suppressionQuerySchema.shape.cursor.meta({ description: "The nextCursor of the previous page, unchanged." }),
});
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(check: Same<A, B>) => check;
same<keyof typeof documentedListQuery.shape, keyof typeof suppressionQuerySchema.shape>(true);

const bodyProblems = {
  400: problem(
    ["invalid_request", "malformed_json", "incomplete_body"],
    "The body is not JSON, does not identify a person as a submit item does, or was cut short",
  ),
  413: problem(["payload_too_large"], "A body over the size limit"),
  415: problem(["unsupported_media_type"], "The body is not application/json", {
    headers: { "Accept-Post": header("The media type to send.", "application/json", true) },
  }),
};

const headers = (endpointType: "contact_info_request" | "rate_limits", limit: number) => ({
  "x-request-id": requestIdHeader,
  ...rateLimitHeaders(endpointType, exampleUsage(limit, 1, 60)),
});

export function registerPrivacy(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "post",
    path: "/v2/{environment}/privacy/erasures",
    operationId: "erasePerson",
    tags: ["Privacy"],
    summary: "Erase a person from all your batches and caches",
    description:
      "Give one identifier, as on submit: email, linkedinUrl, or a name with companyDomain or companyName. Every item of your retained batches in this environment that carries it keeps its place, status and credits (the batches' counters do not change) and loses its input and results (erasedAt is set; an item still pending ends failed with erased); the person's cached results and verdicts are deleted. Unless suppress is false the person is also added to the do-not-enrich list. The receipt holds counts only. Batches are found through an index of hashed identifiers (a batch not yet wholly in it is asked anyway). Rate limited as contact_info_request (Tier 3).",
    security: keyRequired,
    request: { params: environmentParams, body: { required: true, content: { "application/json": { schema: erasureRequestSchema } } } },
    responses: {
      200: {
        description: "Erased.",
        headers: headers("contact_info_request", 50),
        content: { "application/json": { schema: erasureReceiptSchema } },
      },
      ...bodyProblems,
      ...authProblems,
      404: unknownEnvironment,
      429: rateLimited("contact_info_request", 50),
      500: internalError,
    },
  });

  r.registerPath({
    method: "get",
    path: "/v2/{environment}/privacy/erasures/{id}",
    operationId: "getErasure",
    tags: ["Privacy"],
    summary: "Read an erasure's receipt",
    description: "Rate limited as rate_limits (Tier 4).",
    security: keyRequired,
    request: { params: environmentParams.extend({ id: erasureReceiptSchema.shape.id }) },
    responses: {
      200: {
        description: "The receipt.",
        headers: headers("rate_limits", 100),
        content: { "application/json": { schema: erasureReceiptSchema } },
      },
      ...authProblems,
      404: problem(["not_found"], "No such erasure for this customer and environment"),
      429: rateLimited("rate_limits", 100),
      500: internalError,
    },
  });

  r.registerPath({
    method: "put",
    path: "/v2/{environment}/privacy/suppressions",
    operationId: "addSuppressions",
    tags: ["Privacy"],
    summary: "Add people to the do-not-enrich list",
    description: `Up to ${MAX_SUPPRESSIONS_PER_REQUEST} people, each as a submit item. A suppressed person's items, also in batches submitted before, end failed with suppressed when they are processed: no data source is asked and nothing is charged. Adding a person again changes nothing. Only hashed keys are stored. Rate limited as contact_info_request (Tier 3).`,
    security: keyRequired,
    request: { params: environmentParams, body: { required: true, content: { "application/json": { schema: suppressionRequestSchema } } } },
    responses: {
      200: {
        description: "Added.",
        headers: headers("contact_info_request", 50),
        content: { "application/json": { schema: suppressionsAddedSchema } },
      },
      ...bodyProblems,
      ...authProblems,
      404: unknownEnvironment,
      429: rateLimited("contact_info_request", 50),
      500: internalError,
    },
  });

  r.registerPath({
    method: "get",
    path: "/v2/{environment}/privacy/suppressions",
    operationId: "listSuppressions",
    tags: ["Privacy"],
    summary: "List the do-not-enrich list, newest first",
    description: "Hashed keys and dates, never the identifiers. Rate limited as rate_limits (Tier 4).",
    security: keyRequired,
    request: { params: environmentParams, query: documentedListQuery },
    responses: {
      200: {
        description: "One page of the list.",
        headers: headers("rate_limits", 100),
        content: { "application/json": { schema: suppressionListSchema } },
      },
      400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
      ...authProblems,
      404: unknownEnvironment,
      429: rateLimited("rate_limits", 100),
      500: internalError,
    },
  });

  r.registerPath({
    method: "delete",
    path: "/v2/{environment}/privacy/suppressions/{key}",
    operationId: "removeSuppression",
    tags: ["Privacy"],
    summary: "Remove a key from the do-not-enrich list",
    description: "Rate limited as contact_info_request (Tier 3).",
    security: keyRequired,
    request: { params: environmentParams.extend({ key: suppressionKeySchema }) },
    responses: {
      204: { description: "Removed.", headers: headers("contact_info_request", 50) },
      ...authProblems,
      404: problem(["not_found"], "The key is not on the list"),
      429: rateLimited("contact_info_request", 50),
      500: internalError,
    },
  });
}
