import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { decodeCursor } from "../batch/cursor";
import { batchStub } from "../batch/stub";
import { readConfig } from "../config";
import { normalizePerson, personKey } from "../contact-info/person";
import { parseSubmission } from "../contact-info/submission";
import { readJsonBody } from "../http/json-body";
import { methodNotAllowed } from "../http/method-not-allowed";
import { badRequest, notFound } from "../http/problem";
import { rateLimit } from "../middleware/rate-limit";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_PAGE_SIZE = 1000;
const STATUS_QUERY_PARAMETERS = new Set(["limit", "cursor"]);

export const contactInfo = new Hono<AppEnv>()
  .post("/", rateLimit("contact_info_request"), async (c) => {
    const config = readConfig(c.env);
    const submission = parseSubmission(await readJsonBody(c.req.raw, config.maxBodyBytes), config.maxBatchItems);
    const environment = c.get("environment");
    const apiKey = c.get("apiKey");
    const batchId = crypto.randomUUID();
    const batch = await batchStub(c.env, batchId).create({
      id: batchId,
      customerId: apiKey.customerId,
      environment,
      keyId: apiKey.keyId,
      fields: submission.fields,
      createdAt: new Date().toISOString(),
      items: submission.items.map((item) => ({ ...item, dedupeKey: personKey(normalizePerson(item.input)) })),
    });
    const invalid = batch.failedItems;
    c.header("location", `/v2/${environment}/person/contact-info/${batchId}`);
    return c.json(
      {
        batchId,
        itemCount: batch.totalItems,
        message:
          `Accepted ${batch.totalItems} item(s); ${batch.totalItems - invalid} queued for processing` +
          (invalid > 0 ? `, ${invalid} failed validation (see each item's error).` : ".") +
          " Poll the Location URL for results.",
      },
      202,
    );
  })
  .all("/", methodNotAllowed("POST"))
  .get("/:id", rateLimit("contact_info_status", { parallel: true }), async (c) => {
    const id = c.req.param("id");
    if (!UUID.test(id)) throw notFound("No batch with this id exists.");
    const query = c.req.query();
    const unknown = Object.keys(query).filter((name) => !STATUS_QUERY_PARAMETERS.has(name));
    if (unknown.length > 0) {
      throw badRequest("invalid_query", `Unknown query parameter(s): ${unknown.join(", ")}.`, unknown.map((path) => ({ path, message: "unknown query parameter" })));
    }
    const limit = query.limit === undefined ? MAX_PAGE_SIZE : Number(query.limit);
    if (!/^\d+$/.test(query.limit ?? "1") || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw badRequest("invalid_query", `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`, [{ path: "limit", message: `must be 1 to ${MAX_PAGE_SIZE}` }]);
    }
    const fromIndex = query.cursor === undefined ? 0 : decodeCursor(query.cursor);
    if (fromIndex === null) {
      throw badRequest("invalid_query", "cursor is not valid: pass the nextCursor of a previous page unchanged.", [{ path: "cursor", message: "not a cursor this API issued" }]);
    }
    const apiKey = c.get("apiKey");
    const page = await batchStub(c.env, id.toLowerCase()).status(
      { customerId: apiKey.customerId, environment: c.get("environment") },
      { fromIndex, limit },
    );
    // Another customer's or environment's batch answers exactly like a missing one.
    if (!page) throw notFound("No batch with this id exists.");
    return c.json(page);
  })
  .all("/:id", methodNotAllowed("GET"));
