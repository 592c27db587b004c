import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { batchPageSchema } from "../batch/views";
import { CONTACT_FIELDS } from "../contact-info/contact";
import { personInputSchema } from "../contact-info/person";
import { statusQuerySchema } from "../contact-info/status-query";
import { fieldsSchema, webhookUrlSchema } from "../contact-info/submission";
import { ENVIRONMENTS } from "../environment";
import { ERROR_CODES, type ErrorCode, problemInit } from "../http/errors";
import { PROBLEM_CONTENT_TYPE, problemBody } from "../http/problem";
import { API_INDEX } from "../routes/api-index";
import { batchCompletedEventSchema } from "../webhooks/event";
import { EXAMPLE_REQUEST_ID, problemSchema, rateLimitInfoSchema, receiptSchema } from "./schemas";

// The request schemas are the ones that validate requests; the response schemas
// are type-checked against what the Worker returns (schemas.ts).

const environmentParams = z.object({
  environment: z
    .enum(ENVIRONMENTS)
    .meta({ description: "`test` is the deterministic sandbox; `live` uses real data sources.", example: "test" }),
});
const apiKeyHeaders = z.object({
  "x-api-key": z.string().meta({
    description: "Your API key: ck_test_… or ck_live_…, matching the environment.",
    example: "ck_test_localdevelopmentkey0000000000000",
  }),
});

const header = (description: string, example: string | number) => ({
  schema: { type: typeof example === "number" ? ("integer" as const) : ("string" as const), example },
  description,
});
const rateLimitHeaders = (endpointType: string, limit: number) => ({
  RateLimit: header(
    "IETF RateLimit field: remaining quota (r) and seconds until a unit frees (t).",
    `"${endpointType}";r=${limit - 1};t=60`,
  ),
  "RateLimit-Policy": header("IETF RateLimit-Policy field: quota (q) per window of w seconds.", `"${endpointType}";q=${limit};w=60`),
});

/**
 * A problem+json response; `codes` are the stable codes it may carry, all of one status,
 * the first used in the example, which is built as the Worker builds a problem.
 */
const problem = (
  codes: [ErrorCode, ...ErrorCode[]],
  description: string,
  extensions: Record<string, string | number> = {},
): ResponseConfig => {
  const [first] = codes;
  const stray = codes.filter((code) => ERROR_CODES[code] !== ERROR_CODES[first]);
  if (stray.length > 0) throw new Error(`OpenAPI: ${stray.join(", ")} and ${first} answer different statuses`);
  return {
    description: `${description} (code ${codes.map((code) => `\`${code}\``).join(" or ")}).`,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: problemSchema,
        example: problemBody(problemInit(first, `${description}.`, { extensions }), EXAMPLE_REQUEST_ID),
      },
    },
  };
};

const authProblems = {
  401: problem(["invalid_api_key", "missing_api_key"], "Missing, unknown or revoked API key"),
  403: problem(["environment_mismatch"], "The key belongs to the other environment"),
};

const rateLimited = (endpointType: string, limit: number): ResponseConfig => ({
  ...problem(["rate_limited"], "Over the rate limit for this endpoint type; nothing was done", {
    endpointType,
    limit,
    windowSeconds: 60,
    retryAfterSeconds: 12,
  }),
  headers: { "Retry-After": header("Seconds to wait; never less than the t of RateLimit.", 12), ...rateLimitHeaders(endpointType, limit) },
});

const documentedSubmission = z
  .strictObject({
    items: z.array(personInputSchema).min(1).meta({
      description:
        "Each item is identifiable with linkedinUrl, or email, or a name (firstName + lastName, or fullName) plus companyDomain or companyName. An invalid item does not reject the batch: it is accepted as a failed item with error code invalid_input.",
    }),
    fields: fieldsSchema.optional().meta({ description: `What to find; default all of ${CONTACT_FIELDS.join(", ")}.` }),
    webhookUrl: webhookUrlSchema.optional().meta({
      description:
        "Where to POST a signed batch.completed event. live: https to public hosts only; test also allows http://127.0.0.1 and localhost.",
      example: "https://example.com/hooks/contact-info",
    }),
  })
  .meta({
    id: "SubmitRequest",
    example: {
      items: [
        { externalId: "crm-1", firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" },
        { linkedinUrl: "https://www.linkedin.com/in/grace-hopper" },
      ],
      fields: ["email", "phone"],
    },
  });

function registry(): OpenAPIRegistry {
  const r = new OpenAPIRegistry();
  r.registerComponent("securitySchemes", "apiKey", { type: "apiKey", in: "header", name: "x-api-key" });

  r.registerPath({
    method: "post",
    path: "/v2/{environment}/person/contact-info",
    operationId: "submitContactInfoBatch",
    tags: ["Contact info"],
    summary: "Submit a batch of people to enrich",
    description:
      "Accepts the batch and queues every valid item; poll the Location URL for results. Rate limited as contact_info_request (Tier 3).",
    security: [{ apiKey: [] }],
    request: {
      params: environmentParams,
      headers: apiKeyHeaders.extend({
        "Idempotency-Key": z.string().min(1).max(255).optional().meta({
          description:
            "Makes the submit safe to retry for 24 h, across all API keys of the customer in this environment: the same key and request (method, path, query, Content-Type, body) replay the first answer, also after a failure between creating the batch and answering; another request is a 422; while the first is running, a 409.",
          example: "crm-sync-2026-11-22-001",
        }),
      }),
      body: { required: true, content: { "application/json": { schema: documentedSubmission } } },
    },
    responses: {
      202: {
        description: "Accepted. A replay of an idempotent request also carries Idempotent-Replayed: true.",
        headers: {
          Location: header("The batch's status URL.", "/v2/test/person/contact-info/3e1cab3a-0527-4fea-987c-d486f470829c"),
          ...rateLimitHeaders("contact_info_request", 50),
        },
        content: { "application/json": { schema: receiptSchema } },
      },
      400: problem(
        ["invalid_request", "malformed_json", "invalid_idempotency_key", "webhook_not_configured"],
        "The body is not JSON or does not match the schema, or the Idempotency-Key is malformed",
      ),
      ...authProblems,
      404: problem(["not_found"], "Unknown environment"),
      409: {
        ...problem(["idempotency_in_progress"], "A request with this Idempotency-Key is still running", { retryAfterSeconds: 42 }),
        headers: { "Retry-After": header("Seconds until the first request's hold on the key ends.", 42) },
      },
      413: problem(["too_many_items", "payload_too_large"], "More than MAX_BATCH_ITEMS items, or a body over MAX_BODY_BYTES"),
      415: problem(["unsupported_media_type"], "The body is not application/json"),
      422: problem(
        ["idempotency_key_reused"],
        "This Idempotency-Key was used with another request (method, path, query, Content-Type or body)",
      ),
      429: rateLimited("contact_info_request", 50),
    },
  });

  r.registerPath({
    method: "get",
    path: "/v2/{environment}/person/contact-info/{id}",
    operationId: "getContactInfoBatch",
    tags: ["Contact info"],
    summary: "Read a batch: counts and per-item contact data",
    description: "Items come in submission order, a page at a time. Rate limited as contact_info_status (Tier 4).",
    security: [{ apiKey: [] }],
    request: {
      params: environmentParams.extend({ id: z.uuid().meta({ description: "The batchId from the submit receipt." }) }),
      headers: apiKeyHeaders,
      query: statusQuerySchema.extend({
        limit: z.string().optional().meta({ description: "Page size, 1 to 1000 (default 1000).", example: "100" }),
        cursor: z.string().optional().meta({ description: "The nextCursor of the previous page, unchanged." }),
      }),
    },
    responses: {
      200: {
        description: "The batch.",
        headers: rateLimitHeaders("contact_info_status", 100),
        content: { "application/json": { schema: batchPageSchema } },
      },
      400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
      ...authProblems,
      404: problem(["not_found"], "No such batch for this customer and environment (another customer's batch looks the same)"),
      410: problem(["batch_expired"], "The batch's data was deleted at the end of its retention period", {
        expiredAt: "2026-12-22T10:00:00.000Z",
      }),
      429: rateLimited("contact_info_status", 100),
    },
  });

  r.registerPath({
    method: "get",
    path: "/v2/{environment}/me/rate-limits",
    operationId: "getRateLimits",
    tags: ["Rate limits"],
    summary: "Your rate limits and usage, per endpoint type",
    description: "Counts itself as rate_limits (Tier 4).",
    security: [{ apiKey: [] }],
    request: { params: environmentParams, headers: apiKeyHeaders },
    responses: {
      200: {
        description: "One entry per endpoint type.",
        headers: rateLimitHeaders("rate_limits", 100),
        content: { "application/json": { schema: z.array(rateLimitInfoSchema) } },
      },
      ...authProblems,
      404: problem(["not_found"], "Unknown environment"),
      429: rateLimited("rate_limits", 100),
    },
  });

  r.registerWebhook({
    method: "post",
    path: "batch.completed",
    operationId: "batchCompleted",
    tags: ["Webhooks"],
    summary: "A batch you submitted with webhookUrl has completed",
    description:
      "Signed per Standard Webhooks with your key's whsec_ secret: webhook-id (stable across retries), webhook-timestamp, webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>). Answer 2xx; other answers and timeouts are retried with backoff.",
    request: {
      body: {
        content: {
          "application/json": {
            schema: batchCompletedEventSchema,
          },
        },
      },
    },
    responses: { 200: { description: "Received." } },
  });

  r.registerPath({
    method: "get",
    path: "/",
    operationId: "index",
    tags: ["Meta"],
    summary: "Where to start",
    description: "Points to the API reference (/docs), this document (/openapi.json) and the health check. Needs no key.",
    responses: {
      200: {
        description: "Links.",
        content: {
          "application/json": {
            schema: z.object({ name: z.string(), docs: z.string(), openapi: z.string(), health: z.string() }).meta({ example: API_INDEX }),
          },
        },
      },
    },
  });
  r.registerPath({
    method: "get",
    path: "/healthz",
    operationId: "health",
    tags: ["Meta"],
    summary: "Liveness, for load balancers",
    description: "Needs no key and touches no storage.",
    responses: { 200: { description: "Up.", content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } } } },
  });
  r.registerPath({
    method: "get",
    path: "/openapi.json",
    operationId: "openApiDocument",
    tags: ["Meta"],
    summary: "This document",
    description: "The OpenAPI 3.1 description of this API, generated from the schemas that validate requests. Needs no key.",
    responses: { 200: { description: "OpenAPI 3.1.", content: { "application/json": { schema: z.object({}).catchall(z.unknown()) } } } },
  });
  r.registerPath({
    method: "get",
    path: "/docs",
    operationId: "apiReference",
    tags: ["Meta"],
    summary: "Interactive API reference",
    description: "A browsable reference built from /openapi.json. Needs no key.",
    responses: { 200: { description: "An HTML page.", content: { "text/html": { schema: z.string() } } } },
  });
  return r;
}

export function openApiDocument() {
  return new OpenApiGeneratorV31(registry().definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Contact-info batch API",
      version: "2.0.0",
      description:
        "Batch person contact-information enrichment. Submit people, poll the batch, read your rate limits. Every error is RFC 9457 problem+json with a stable `code`.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      contact: { name: "API support", email: "api-support@example.com" },
    },
    servers: [{ url: "/", description: "This deployment" }],
    tags: [
      { name: "Contact info", description: "Submit batches and read their results." },
      { name: "Rate limits", description: "Per-key limits per endpoint type." },
      { name: "Webhooks", description: "Events we send to you." },
      { name: "Meta", description: "Health and documentation." },
    ],
  });
}
