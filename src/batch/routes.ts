// Submit a batch, or ask what it would be: POST /v2/{environment}/person/contact-info and …/estimate.
import * as z from "zod";
import { DEFAULT_PRICES, pricesInWords } from "../base/defaults";
import { notInTheWorker, once } from "../base/once";
import { estimateSchema } from "../credits/estimate";
import { KEY_PATTERN, MAX_KEY_LENGTH } from "../idempotency/record-policy";
import { callerOf } from "../middleware/caller";
import { idempotency } from "../middleware/idempotency";
import { jsonBody } from "../middleware/json-body";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, keyRequired, unknownEnvironment } from "../openapi/common";
import { batchLocationExample, estimateExample } from "../openapi/examples";
import { header, requestIdHeader } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { receiptSchema } from "../openapi/schemas";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { estimateContactInfo, readSubmissionOrSource, submitContactInfo } from "./operations";
import { bodyProblems, sourceProblems, submissionBody } from "./submit-request";

const idempotencyKeyHeader = OPENAPI_METADATA
  ? once(() =>
      z.object({
        "Idempotency-Key": z.string().min(1).max(MAX_KEY_LENGTH).regex(KEY_PATTERN).optional().meta({
          description:
            "Makes the submit safe to retry for 24 h, across all API keys of the customer in this environment: the same key and request (method, path, query, Content-Type, body) replay the first answer, also after a failure between creating the batch and answering; another request is a 422; while the first is running, a 409.",
          example: "crm-sync-2026-11-22-001",
        }),
      }),
    )
  : notInTheWorker;

const submitBatch = declareRoute({
  route: {
    method: "post",
    path: "/person/contact-info",
    middleware: [rateLimit(submitContactInfo, { idempotency: true }), idempotency(), jsonBody()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "submitContactInfoBatch",
    tags: ["Contact info"],
    summary: "Submit a batch of people to enrich",
    description: "Accepts the batch and queues every valid item; poll the Location URL for results.",
    security: keyRequired,
    request: { params: environmentParams(), headers: idempotencyKeyHeader(), body: submissionBody() },
    responses: {
      202: {
        description: "Accepted.",
        headers: {
          Location: header("The batch's status URL.", batchLocationExample, true),
          "Idempotent-Replayed": {
            description:
              "`true` when this answer replays the first answer to the same Idempotency-Key; absent otherwise.",
            schema: { type: "string", enum: ["true"] },
          },
          "x-request-id": requestIdHeader(),
        },
        content: { "application/json": { schema: receiptSchema() } },
      },
      400: problem(
        ["invalid_request", "malformed_json", "invalid_idempotency_key", "webhook_not_configured", "incomplete_body"],
        "The body is not JSON or does not match the schema, the Idempotency-Key is malformed, or the body was cut short",
      ),
      ...authProblems(),
      402: problem(
        ["budget_exceeded"],
        "The batch's cap (its maxCredits, else its estimate's maximum) is more than what remains of this month's budget, or of the key's cap (GET …/me/budget); nothing was created",
      ),
      404: unknownEnvironment(),
      409: problem(
        ["idempotency_in_progress", ...sourceProblems.codes409],
        "A request with this Idempotency-Key is still running, or (source) the CRM is not connected or refused its token",
        {
          headers: {
            "Retry-After": header(
              "idempotency_in_progress: seconds until the first request's hold on the key ends.",
              42,
            ),
          },
        },
      ),
      ...bodyProblems(),
      422: problem(
        ["idempotency_key_reused", ...sourceProblems.codes422],
        "This Idempotency-Key was used with another request (method, path, query, Content-Type or body), or (source) the CRM has no such list or refused the request",
      ),
      500: internalError(),
      502: sourceProblems[502](),
      503: sourceProblems[503](),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    const submission = await readSubmissionOrSource(caller, c.get("jsonBody"));
    // With an Idempotency-Key the id was chosen (and recorded) before the batch
    // exists, so a retry after a crash finds this batch instead of making another.
    const batchId = c.get("idempotentBatchId");
    const receipt = await submitContactInfo(caller, submission, { ...(batchId ? { batchId } : {}), origin: c.req.url });
    c.header("location", receipt.location);
    // A resumed idempotent request found the batch its first attempt made before dying;
    // the request is the same (same fingerprint), so this is the original receipt again.
    if (!receipt.created) c.header("idempotent-replayed", "true");
    return c.json({ batchId: receipt.batchId, itemCount: receipt.itemCount, message: receipt.message }, 202);
  },
});

const estimateBatch = declareRoute({
  route: {
    method: "post",
    path: "/person/contact-info/estimate",
    // Shares the submit's limit (contact_info_request): an estimate costs about what a submit does, and creates nothing.
    middleware: [rateLimit(estimateContactInfo), jsonBody()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "estimateContactInfoBatch",
    tags: ["Contact info"],
    summary: "Estimate a batch before submitting it",
    description: `Takes the submit's body and answers what the batch would be: its items, invalid and duplicate ones, those your result cache would answer (live), and the most it could cost at today's prices (${pricesInWords(DEFAULT_PRICES)}, unless configured otherwise). Creates nothing and charges nothing.`,
    security: keyRequired,
    request: { params: environmentParams(), body: submissionBody() },
    responses: {
      200: {
        description: "The estimate.",
        headers: {
          "x-request-id": requestIdHeader(),
        },
        content: { "application/json": { schema: estimateSchema(), example: estimateExample } },
      },
      400: problem(
        ["invalid_request", "malformed_json", "incomplete_body"],
        "The body is not JSON or does not match the schema, or the body was cut short",
      ),
      ...authProblems(),
      404: unknownEnvironment(),
      ...bodyProblems(),
      409: problem([...sourceProblems.codes409], "(source) The CRM is not connected, or refused its token"),
      422: problem([...sourceProblems.codes422], "(source) The CRM has no such list, or refused the request"),
      500: internalError(),
      502: sourceProblems[502](),
      503: sourceProblems[503](),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await estimateContactInfo(caller, await readSubmissionOrSource(caller, c.get("jsonBody"))), 200);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const contactInfoRoutes: readonly DeclaredRoute[] = [submitBatch, estimateBatch];
