// Submit a batch, or ask what it would be: POST /v2/{environment}/person/contact-info and …/estimate.
import * as z from "zod";
import { chunkByCloneBytes } from "../batch/rpc-chunks";
import { batchStub } from "../batch/stub";
import { newBatchId } from "../batch-id";
import { readConfig } from "../config";
import { type IntakeCounts, intakeCounts, leaderIndexes } from "../contact-info/leaders";
import { normalizePerson, personKey } from "../contact-info/person";
import { type PersonHasher, personHasher, personHashes } from "../contact-info/person-keys";
import { parseSubmission, type Submission } from "../contact-info/submission";
import { estimateOf, estimateSchema } from "../credits/estimate";
import { verifiersFor } from "../enrichment/providers";
import { countCached, resultCacheKey } from "../enrichment/result-cache";
import { webhookNotConfigured } from "../http/errors";
import { KEY_PATTERN, MAX_KEY_LENGTH } from "../idempotency/record-policy";
import { idempotency } from "../middleware/idempotency";
import { jsonBody } from "../middleware/json-body";
import { rateLimit } from "../middleware/rate-limit";
import { once } from "../once";
import { authProblems, environmentParams, internalError, keyRequired, rateLimited, unknownEnvironment } from "../openapi/common";
import { batchLocationExample, estimateExample } from "../openapi/examples";
import { exampleUsage, header, rateLimitHeaders, requestIdHeader, retryAfterHeader } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { receiptSchema } from "../openapi/schemas";
import { declareRoute } from "./declare";
import { bodyProblems, submissionBody } from "./submit-request";

function receiptMessage({ total, invalid, queued, duplicates }: IntakeCounts): string {
  return (
    `Accepted ${total} item(s); ${queued} queued for processing` +
    (duplicates > 0 ? `, ${duplicates} merged as duplicates of an earlier item` : "") +
    (invalid > 0 ? `, ${invalid} failed validation (see each item's error).` : ".") +
    " Poll the Location URL for results."
  );
}

/**
 * The submitted items, each valid one normalized and hashed once (its key merges duplicates; all three
 * travel in its queue message and are stored with it), and their leaders.
 */
async function intake(submission: Submission, hasher: PersonHasher) {
  const items = await Promise.all(
    submission.items.map(async (item) => {
      if (item.error) return item;
      const person = normalizePerson(item.input);
      const key = personKey(person);
      return { ...item, person, personKey: key, hashes: await personHashes(hasher, person, key) };
    }),
  );
  return { items, leaders: leaderIndexes(items) };
}

// Documentation only: made on first use (src/once.ts).
const idempotencyKeyHeader = /* @__PURE__ */ once(() =>
  z.object({
    "Idempotency-Key": z.string().min(1).max(MAX_KEY_LENGTH).regex(KEY_PATTERN).optional().meta({
      description:
        "Makes the submit safe to retry for 24 h, across all API keys of the customer in this environment: the same key and request (method, path, query, Content-Type, body) replay the first answer, also after a failure between creating the batch and answering; another request is a 422; while the first is running, a 409.",
      example: "crm-sync-2026-11-22-001",
    }),
  }),
);

export const submitBatch = declareRoute({
  route: {
    method: "post",
    path: "/person/contact-info",
    middleware: [rateLimit("contact_info_request"), jsonBody(), idempotency()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "submitContactInfoBatch",
    tags: ["Contact info"],
    summary: "Submit a batch of people to enrich",
    description:
      "Accepts the batch and queues every valid item; poll the Location URL for results. Rate limited as contact_info_request (Tier 3).",
    security: keyRequired,
    request: { params: environmentParams(), headers: idempotencyKeyHeader(), body: submissionBody() },
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
        content: { "application/json": { schema: receiptSchema() } },
      },
      400: problem(
        ["invalid_request", "malformed_json", "invalid_idempotency_key", "webhook_not_configured", "incomplete_body"],
        "The body is not JSON or does not match the schema, the Idempotency-Key is malformed, or the body was cut short",
      ),
      ...authProblems(),
      404: unknownEnvironment,
      409: problem(["idempotency_in_progress"], "A request with this Idempotency-Key is still running", {
        headers: { "Retry-After": retryAfterHeader("Seconds until the first request's hold on the key ends.", 42) },
      }),
      ...bodyProblems(),
      422: problem(
        ["idempotency_key_reused"],
        "This Idempotency-Key was used with another request (method, path, query, Content-Type or body)",
      ),
      429: rateLimited("contact_info_request", 50),
      500: internalError,
    },
  },
  handler: async (c) => {
    const config = readConfig(c.env);
    const environment = c.get("environment");
    const submission = parseSubmission(c.get("jsonBody"), config.maxBatchItems, environment);
    const apiKey = c.get("apiKey");
    if (submission.webhookUrl && !apiKey.webhookSecret) {
      throw webhookNotConfigured();
    }
    // With an Idempotency-Key the id was chosen (and recorded) before the batch
    // exists, so a retry after a crash finds this batch instead of making another.
    const batchId = c.get("idempotentBatchId") ?? newBatchId(apiKey.jurisdiction);
    const location = `/v2/${environment}/person/contact-info/${batchId}`;
    const { items, leaders } = await intake(submission, personHasher(c.env, apiKey));
    const createdAt = new Date().toISOString();
    const stub = batchStub(c.env, batchId);
    // One call for almost every batch; one too large for a call goes in chunks, staged, then the last with the batch.
    const chunks = chunkByCloneBytes(items);
    let stagedItems = 0;
    for (const chunk of chunks.slice(0, -1)) {
      await stub.stage({
        createdAt,
        firstIndex: stagedItems,
        items: chunk,
        leaders: leaders.slice(stagedItems, stagedItems + chunk.length),
      });
      stagedItems += chunk.length;
    }
    const batch = await stub.create({
      id: batchId,
      customerId: apiKey.customerId,
      environment,
      keyId: apiKey.keyId,
      fields: submission.fields,
      createdAt,
      items: chunks[chunks.length - 1]!,
      leaders: leaders.slice(stagedItems),
      stagedItems,
      maxCredits: submission.maxCredits,
      statusUrl: new URL(location, c.req.url).href,
      ...(submission.webhookUrl
        ? { webhook: { url: submission.webhookUrl, secret: apiKey.webhookSecret!, events: submission.webhookEvents } }
        : {}),
    });
    c.header("location", location);
    // A resumed idempotent request found the batch its first attempt made before dying;
    // the request is the same (same fingerprint), so this is the original receipt again.
    if (!batch.created) c.header("idempotent-replayed", "true");
    return c.json({ batchId, itemCount: batch.totalItems, message: receiptMessage(intakeCounts(items, leaders)) }, 202);
  },
});

export const estimateBatch = declareRoute({
  route: {
    method: "post",
    path: "/person/contact-info/estimate",
    // Shares the submit's limit (contact_info_request): an estimate costs about what a submit does, and creates nothing.
    middleware: [rateLimit("contact_info_request"), jsonBody()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "estimateContactInfoBatch",
    tags: ["Contact info"],
    summary: "Estimate a batch before submitting it",
    description:
      "Takes the submit's body and answers what the batch would be: its items, invalid and duplicate ones, those your result cache would answer (live), and the most it could cost at today's prices (an email 1 credit, a phone 10, unless configured otherwise). Creates nothing and charges nothing. Rate limited as contact_info_request (Tier 3), like a submit.",
    security: keyRequired,
    request: { params: environmentParams(), body: submissionBody() },
    responses: {
      200: {
        description: "The estimate.",
        headers: { "x-request-id": requestIdHeader, ...rateLimitHeaders("contact_info_request", exampleUsage(50, 1, 60)) },
        content: { "application/json": { schema: estimateSchema(), example: estimateExample } },
      },
      400: problem(
        ["invalid_request", "malformed_json", "incomplete_body"],
        "The body is not JSON or does not match the schema, or the body was cut short",
      ),
      ...authProblems(),
      404: unknownEnvironment,
      ...bodyProblems(),
      429: rateLimited("contact_info_request", 50),
      500: internalError,
    },
  },
  handler: async (c) => {
    const config = readConfig(c.env);
    const environment = c.get("environment");
    const submission = parseSubmission(c.get("jsonBody"), config.maxBatchItems, environment);
    const { items, leaders } = await intake(submission, personHasher(c.env, c.get("apiKey")));
    // Only live results are cached (enricher.ts), and never a customer's with a jurisdiction;
    // the leaders are what the batch would look up.
    let cachedItems = 0;
    if (environment === "live" && !c.get("apiKey").jurisdiction) {
      const owner = { customerId: c.get("apiKey").customerId, environment };
      const keys = items.flatMap((item, index) =>
        item.error === null && leaders[index] === null && "hashes" in item
          ? [resultCacheKey(owner, submission.fields, item.hashes.person)]
          : [],
      );
      cachedItems = await countCached(c.env.RESULT_CACHE, keys);
    }
    const verifiers = verifiersFor(environment, c.env, config).length;
    return c.json(estimateOf(items, leaders, submission.fields, cachedItems, config.prices, verifiers), 200);
  },
});
