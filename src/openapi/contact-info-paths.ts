// Submit a batch and read it: POST and GET under /v2/{environment}/person/contact-info.
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { batchPageSchema } from "../contact-info/batch-views";
import { CONTACT_FIELDS } from "../contact-info/contact";
import { personInputSchema } from "../contact-info/person";
import { MAX_PAGE_SIZE, statusQuerySchema } from "../contact-info/status-query";
import { fieldsSchema, maxCreditsSchema, webhookEventsSchema, webhookUrlSchema } from "../contact-info/submission";
import { DEFAULT_WEBHOOK_EVENTS, MAX_ITEMS_PER_DELIVERY } from "../contact-info/webhook-events";
import { estimateSchema } from "../credits/estimate";
import { KEY_PATTERN, MAX_KEY_LENGTH } from "../idempotency/record-policy";
import { authProblems, environmentParams, internalError, keyRequired, rateLimited, unknownEnvironment } from "./common";
import { batchLocationExample, batchStatusExample, estimateExample, submitRequestExample } from "./examples";
import { exampleUsage, header, rateLimitHeaders, requestIdHeader, retryAfterHeader } from "./headers";
import { problem } from "./problems";
import { receiptSchema } from "./schemas";

const documentedSubmission = z
  .strictObject({
    items: z.array(personInputSchema).min(1).meta({
      description:
        "Each item is identifiable with linkedinUrl, or email, or a name (firstName + lastName, or fullName) plus companyDomain or companyName. An invalid item does not reject the batch: it is accepted as a failed item with error code invalid_input. At most MAX_BATCH_ITEMS items (see too_many_items).",
    }),
    fields: fieldsSchema.optional().meta({ description: `What to find; default all of ${CONTACT_FIELDS.join(", ")}.` }),
    webhookUrl: webhookUrlSchema.optional().meta({
      description:
        "Where to POST the signed events webhookEvents names (by default batch.completed). live: https to public hosts only; test also allows http://127.0.0.1 and localhost.",
      example: "https://example.com/hooks/contact-info",
    }),
    webhookEvents: webhookEventsSchema.optional().meta({
      description: `The events to send to webhookUrl (required with this field), each at most once; default ${JSON.stringify(DEFAULT_WEBHOOK_EVENTS)}. item.completed: a delivery for the items each record finishes, at most ${MAX_ITEMS_PER_DELIVERY} items to a delivery, every item in exactly one (see the webhooks).`,
      example: ["batch.completed", "item.completed"],
      uniqueItems: true,
    }),
    maxCredits: maxCreditsSchema.optional().meta({
      description:
        "The most the batch may charge, in credits; default no cap. Items are charged as they finish; one whose result would take the batch past this ends failed with budget_exhausted, is not charged, and may be resubmitted. POST …/estimate tells the most a batch could cost.",
      example: 100,
    }),
  })
  .meta({ id: "SubmitRequest", example: submitRequestExample });

// Query values arrive as strings, which statusQuerySchema parses; the document says what
// they mean (limit is an integer), from the same constants and enums.
const documentedStatusQuery = z.object({
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
});
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(check: Same<A, B>) => check;
same<keyof typeof documentedStatusQuery.shape, keyof typeof statusQuerySchema.shape>(true);

const idempotencyKeyHeader = z.object({
  "Idempotency-Key": z.string().min(1).max(MAX_KEY_LENGTH).regex(KEY_PATTERN).optional().meta({
    description:
      "Makes the submit safe to retry for 24 h, across all API keys of the customer in this environment: the same key and request (method, path, query, Content-Type, body) replay the first answer, also after a failure between creating the batch and answering; another request is a 422; while the first is running, a 409.",
    example: "crm-sync-2026-11-22-001",
  }),
});

export const batchParams = environmentParams.extend({
  id: z.uuid().meta({ description: "The batchId from the submit receipt.", example: "3e1cab3a-0527-4fea-987c-d486f470829c" }),
});

export function registerContactInfo(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "post",
    path: "/v2/{environment}/person/contact-info",
    operationId: "submitContactInfoBatch",
    tags: ["Contact info"],
    summary: "Submit a batch of people to enrich",
    description:
      "Accepts the batch and queues every valid item; poll the Location URL for results. Rate limited as contact_info_request (Tier 3).",
    security: keyRequired,
    request: {
      params: environmentParams,
      headers: idempotencyKeyHeader,
      body: { required: true, content: { "application/json": { schema: documentedSubmission } } },
    },
    responses: {
      202: {
        description: "Accepted.",
        headers: {
          Location: header("The batch's status URL.", batchLocationExample, true),
          "Idempotent-Replayed": {
            description: "`true` when this answer replays the first answer to the same Idempotency-Key; absent otherwise.",
            schema: { type: "string", enum: ["true"] },
          },
          "x-request-id": requestIdHeader,
          ...rateLimitHeaders("contact_info_request", exampleUsage(50, 1, 60)),
        },
        content: { "application/json": { schema: receiptSchema } },
      },
      400: problem(
        ["invalid_request", "malformed_json", "invalid_idempotency_key", "webhook_not_configured", "incomplete_body"],
        "The body is not JSON or does not match the schema, the Idempotency-Key is malformed, or the body was cut short",
      ),
      ...authProblems,
      404: unknownEnvironment,
      409: problem(["idempotency_in_progress"], "A request with this Idempotency-Key is still running", {
        headers: { "Retry-After": retryAfterHeader("Seconds until the first request's hold on the key ends.", 42) },
      }),
      413: problem(["too_many_items", "payload_too_large"], "More items than a batch holds, or a body over the size limit"),
      415: problem(["unsupported_media_type"], "The body is not application/json", {
        headers: { "Accept-Post": header("The media type to send.", "application/json", true) },
      }),
      422: problem(
        ["idempotency_key_reused"],
        "This Idempotency-Key was used with another request (method, path, query, Content-Type or body)",
      ),
      429: rateLimited("contact_info_request", 50),
      500: internalError,
    },
  });

  r.registerPath({
    method: "post",
    path: "/v2/{environment}/person/contact-info/estimate",
    operationId: "estimateContactInfoBatch",
    tags: ["Contact info"],
    summary: "Estimate a batch before submitting it",
    description:
      "Takes the submit's body and answers what the batch would be: its items, invalid and duplicate ones, those your result cache would answer (live), and the most it could cost at today's prices (an email 1 credit, a phone 10, unless configured otherwise). Creates nothing and charges nothing. Rate limited as contact_info_request (Tier 3), like a submit.",
    security: keyRequired,
    request: {
      params: environmentParams,
      body: { required: true, content: { "application/json": { schema: documentedSubmission } } },
    },
    responses: {
      200: {
        description: "The estimate.",
        headers: { "x-request-id": requestIdHeader, ...rateLimitHeaders("contact_info_request", exampleUsage(50, 1, 60)) },
        content: { "application/json": { schema: estimateSchema, example: estimateExample } },
      },
      400: problem(
        ["invalid_request", "malformed_json", "incomplete_body"],
        "The body is not JSON or does not match the schema, or the body was cut short",
      ),
      ...authProblems,
      404: unknownEnvironment,
      413: problem(["too_many_items", "payload_too_large"], "More items than a batch holds, or a body over the size limit"),
      415: problem(["unsupported_media_type"], "The body is not application/json", {
        headers: { "Accept-Post": header("The media type to send.", "application/json", true) },
      }),
      429: rateLimited("contact_info_request", 50),
      500: internalError,
    },
  });

  r.registerPath({
    method: "get",
    path: "/v2/{environment}/person/contact-info/{id}",
    operationId: "getContactInfoBatch",
    tags: ["Contact info"],
    summary: "Read a batch: counts and per-item contact data",
    description: "Items come in submission order, a page at a time. Rate limited as contact_info_status (Tier 4).",
    security: keyRequired,
    request: {
      params: batchParams,
      query: documentedStatusQuery,
    },
    responses: {
      200: {
        description: "The batch.",
        headers: { "x-request-id": requestIdHeader, ...rateLimitHeaders("contact_info_status", exampleUsage(100, 1, 60)) },
        content: { "application/json": { schema: batchPageSchema, example: batchStatusExample } },
      },
      400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
      ...authProblems,
      404: problem(["not_found"], "No such batch for this customer and environment (another customer's batch looks the same)"),
      410: problem(["batch_expired", "batch_deleted"], "The batch's data was deleted: at the end of its retention period, or by its owner"),
      429: rateLimited("contact_info_status", 100),
      500: internalError,
    },
  });
}
