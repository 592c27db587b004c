import { Hono } from "hono";
import { scorecardRange } from "../account/usage-query";
import { isEnvironment } from "../base/environment";
import { log, logError } from "../base/log";
import { connectionsStub } from "../connections/stub";
import { readJsonBody } from "../http/body";
import { badRequest, internalError, notFound } from "../http/errors";
import { ApiError, problemResponse } from "../http/problem";
import { revocationSchema } from "../keys/api-key";
import { adminToken } from "../middleware/admin-token";
import { limiterStub } from "../rate-limit/stub";
import { sourcesAcrossCustomers } from "./source-stats";
import { vendorCeilings } from "./vendor-ceilings";

// A revocation is a few ids.
const MAX_ADMIN_BODY_BYTES = 4096;

/** Whether a request is for the admin API rather than the public one (src/index.ts routes it here). */
export const isAdminPath = (url: string): boolean => new URL(url).pathname.startsWith("/admin/");

/**
 * The operators' API, apart from the public one (not in its OpenAPI document):
 * what the key tool needs the running service to know at once. Behind `adminToken`.
 */
export const adminApi = new Hono<{ Bindings: Env }>()
  .basePath("/admin")
  .use(adminToken())
  // The key's limiter refuses it from its next request on (src/rate-limit/rate-limiter.ts);
  // the KV record the key tool wrote stops it for good once every cached copy has expired.
  .post("/revocations", async (c) => {
    const parsed = revocationSchema.safeParse(await readJsonBody(c.req, MAX_ADMIN_BODY_BYTES));
    if (!parsed.success) throw badRequest("invalid_request", "Send { keyId, customerId, environment, jurisdiction? }.");
    const { keyId, ...tenant } = parsed.data;
    await limiterStub(c.env, tenant).revoke(keyId);
    // The assistants connected with the key (OAuth) end with it: their tokens are refused at their next request.
    const connections = await connectionsStub(c.env, tenant).endForKey(keyId);
    log("api_key_revoked", { keyId, connections });
    return c.body(null, 204);
  })
  // Every customer's traffic per data source in one environment, last 30 days, and each vendor's calls
  // today against its daily ceiling (npm run stats).
  .get("/sources", async (c) => {
    const environment = c.req.query("environment") ?? "live";
    if (!isEnvironment(environment)) throw badRequest("invalid_query", "environment must be live or test.");
    const range = scorecardRange(Date.now());
    const [sources, ceilings] = await Promise.all([
      sourcesAcrossCustomers(c.env, environment, range),
      vendorCeilings(c.env),
    ]);
    return c.json({ environment, ...range, ...sources, vendorCeilings: ceilings });
  })
  .notFound((c) => problemResponse(notFound().init, requestIdOf(c.req.raw)))
  .onError((error, c) => {
    const requestId = requestIdOf(c.req.raw);
    if (error instanceof ApiError) return problemResponse(error.init, requestId);
    logError("unhandled_error", error, { requestId, method: c.req.method, path: c.req.routePath });
    return problemResponse(internalError().init, requestId);
  });

// As the public API's: Cloudflare's Ray ID, so our logs join Cloudflare's.
const requestIdOf = (request: Request): string => request.headers.get("cf-ray") ?? crypto.randomUUID();
