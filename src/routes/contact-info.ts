import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { parseListQuery } from "../account/list-query";
import { accountStub } from "../account/stub";
import type { AppEnv } from "../app-env";
import { chunkByCloneBytes } from "../batch/rpc-chunks";
import { batchStub } from "../batch/stub";
import { readConfig } from "../config";
import { batchPageJson } from "../contact-info/batch-views";
import { type IntakeCounts, intakeCounts, leaderIndexes } from "../contact-info/leaders";
import { normalizePerson, personKey } from "../contact-info/person";
import { parseStatusQuery } from "../contact-info/status-query";
import { parseSubmission, type Submission } from "../contact-info/submission";
import { estimateOf } from "../credits/estimate";
import { verifiersFor } from "../enrichment/providers";
import { countCached, resultCacheKey } from "../enrichment/result-cache";
import { readJsonBody } from "../http/body";
import { badRequest, batchDeleted, batchExpired, notFound } from "../http/errors";
import { idempotency } from "../middleware/idempotency";
import { rateLimit } from "../middleware/rate-limit";
import { BATCH_ID } from "./batch-id";

// The body is read and checked (415, 413, malformed JSON) before the Idempotency-Key
// is looked up, so a malformed retry is told what is wrong, never replayed.
const jsonBody = () =>
  createMiddleware<AppEnv & { Variables: { jsonBody: unknown } }>(async function jsonBody(c, next) {
    c.set("jsonBody", await readJsonBody(c.req, readConfig(c.env).maxBodyBytes));
    await next();
  });

function receiptMessage({ total, invalid, queued, duplicates }: IntakeCounts): string {
  return (
    `Accepted ${total} item(s); ${queued} queued for processing` +
    (duplicates > 0 ? `, ${duplicates} merged as duplicates of an earlier item` : "") +
    (invalid > 0 ? `, ${invalid} failed validation (see each item's error).` : ".") +
    " Poll the Location URL for results."
  );
}

/** The submitted items, each valid one normalized once (its key merges duplicates; both travel in its queue message), and their leaders. */
function intake(submission: Submission) {
  const items = submission.items.map((item) => {
    if (item.error) return item;
    const person = normalizePerson(item.input);
    return { ...item, person, personKey: personKey(person) };
  });
  return { items, leaders: leaderIndexes(items) };
}

export const contactInfo = new Hono<AppEnv>()
  .get("/", rateLimit("contact_info_status", { parallel: true }), async (c) => {
    const page = parseListQuery(c.req.query());
    const apiKey = c.get("apiKey");
    return c.json(await accountStub(c.env, { customerId: apiKey.customerId, environment: c.get("environment") }).list(page));
  })
  .post("/", rateLimit("contact_info_request"), jsonBody(), idempotency(), async (c) => {
    const config = readConfig(c.env);
    const environment = c.get("environment");
    const submission = parseSubmission(c.get("jsonBody"), config.maxBatchItems, environment);
    const apiKey = c.get("apiKey");
    if (submission.webhookUrl && !apiKey.webhookSecret) {
      throw badRequest("webhook_not_configured", "This API key has no webhook signing secret; create a new key to use webhooks.");
    }
    // With an Idempotency-Key the id was chosen (and recorded) before the batch
    // exists, so a retry after a crash finds this batch instead of making another.
    const batchId = c.get("idempotentBatchId") ?? crypto.randomUUID();
    const location = `/v2/${environment}/person/contact-info/${batchId}`;
    const { items, leaders } = intake(submission);
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
  })
  // Shares the submit's limit (contact_info_request): an estimate costs about what a submit does, and creates nothing.
  .post("/estimate", rateLimit("contact_info_request"), jsonBody(), async (c) => {
    const config = readConfig(c.env);
    const environment = c.get("environment");
    const submission = parseSubmission(c.get("jsonBody"), config.maxBatchItems, environment);
    const { items, leaders } = intake(submission);
    // Only live results are cached (enricher.ts); the leaders are what the batch would look up.
    let cachedItems = 0;
    if (environment === "live") {
      const owner = { customerId: c.get("apiKey").customerId, environment };
      const keys = await Promise.all(
        items.flatMap((item, index) =>
          item.error === null && leaders[index] === null && "personKey" in item
            ? [resultCacheKey(owner, submission.fields, item.personKey)]
            : [],
        ),
      );
      cachedItems = await countCached(c.env.RESULT_CACHE, keys);
    }
    const verifiers = verifiersFor(environment, c.env, config).length;
    return c.json(estimateOf(items, leaders, submission.fields, cachedItems, config.prices, verifiers));
  })
  .get("/:id", rateLimit("contact_info_status", { parallel: true }), async (c) => {
    const id = c.req.param("id");
    if (!BATCH_ID.test(id)) throw notFound("No batch with this id exists.");
    const query = parseStatusQuery(c.req.query());
    const apiKey = c.get("apiKey");
    const read = await batchStub(c.env, id.toLowerCase()).status(
      { customerId: apiKey.customerId, environment: c.get("environment") },
      query,
    );
    // Another customer's or environment's batch answers exactly like a missing one.
    if (read.kind === "none") throw notFound("No batch with this id exists.");
    if (read.kind === "expired") throw batchExpired(read.expiredAt);
    if (read.kind === "deleted") throw batchDeleted(read.deletedAt);
    return c.body(batchPageJson(read.page), 200, { "content-type": "application/json" });
  })
  .delete("/:id", rateLimit("contact_info_request"), async (c) => {
    const id = c.req.param("id");
    if (!BATCH_ID.test(id)) throw notFound("No batch with this id exists.");
    const apiKey = c.get("apiKey");
    const deleted = await batchStub(c.env, id.toLowerCase()).erase({ customerId: apiKey.customerId, environment: c.get("environment") });
    // Another customer's or environment's batch answers exactly like a missing one.
    if (!deleted) throw notFound("No batch with this id exists.");
    return c.body(null, 204);
  });
