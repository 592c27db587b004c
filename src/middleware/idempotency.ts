import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../app-env";
import { readConfig } from "../base/config";
import { logError } from "../base/log";
import { sha256Hex } from "../base/sha256";
import { tenantOf } from "../base/tenant";
import { batchStub } from "../batch/stub";
import { readBodyBytes, readJsonBody } from "../http/body";
import { idempotencyInProgress, idempotencyKeyReused, invalidIdempotencyKey } from "../http/errors";
import { KEY_PATTERN, MAX_KEY_LENGTH, type StoredResponse } from "../idempotency/record-policy";
import type { IdempotencyRequest } from "../rate-limit/rate-limiter";
import { limiterStub } from "../rate-limit/stub";

export interface FingerprintedRequest {
  method: string;
  path: string;
  /** The raw query string, with its `?`, or "". */
  query: string;
  contentType: string | undefined;
}

/** SHA-256 over method, path, query, Content-Type and body: what makes two requests the same request. */
export async function requestFingerprint(request: FingerprintedRequest, body: ArrayBuffer): Promise<string> {
  // Media types are case-insensitive and may carry optional whitespace around parameters.
  const contentType = (request.contentType ?? "").toLowerCase().replace(/\s+/g, "");
  // JSON keeps the parts apart unambiguously; the body follows the line.
  const prefix = new TextEncoder().encode(
    `${JSON.stringify([request.method, request.path, request.query, contentType])}\n`,
  );
  const data = new Uint8Array(prefix.byteLength + body.byteLength);
  data.set(prefix);
  data.set(new Uint8Array(body), prefix.byteLength);
  return sha256Hex(data);
}

type IdempotencyEnv = AppEnv & {
  Variables: {
    /** Set for a request with an Idempotency-Key: the id its batch must have, named before it exists. */
    idempotentBatchId?: string;
  };
};

/**
 * The request's Idempotency-Key (400 if malformed) and its fingerprint, for the limiter
 * to begin with its count; undefined without one. Reads the body (once: the handler
 * gets the same bytes), so its 413 or 400 comes before the count.
 */
export async function idempotencyRequest(c: Context<AppEnv>): Promise<IdempotencyRequest | undefined> {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
    throw invalidIdempotencyKey(MAX_KEY_LENGTH);
  }
  const config = readConfig(c.env);
  const url = new URL(c.req.url);
  const fingerprint = await requestFingerprint(
    { method: c.req.method, path: url.pathname, query: url.search, contentType: c.req.header("content-type") },
    await readBodyBytes(c.req, config.maxBodyBytes),
  );
  return { key, fingerprint, ttlSeconds: config.idempotencyTtlSeconds, tenant: tenantOf(c.get("apiKey")) };
}

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header, Stripe-like),
 * scoped to the customer and environment and kept IDEMPOTENCY_TTL_SECONDS: the
 * same key with the same request replays the first answer; with another, 422;
 * while the first request is still running, 409. The key is begun by the
 * limiter's call (`rateLimit(operation, { idempotency: true })`, before this), which
 * keeps the customer's records; a malformed or mistyped body is told what is
 * wrong before a 409 or 422. The handler creates the batch under
 * `idempotentBatchId`, so a retry after a crash reaches the same batch.
 * A 2xx answer is stored; after a client error the key is free again, so a
 * corrected retry runs; after a server error the key keeps its batch id if the
 * batch was made, and is free again if not.
 */
export const idempotency = () =>
  createMiddleware<IdempotencyEnv>(async function idempotency(c, next) {
    const request = c.get("idempotencyKey");
    if (request === undefined) {
      if (c.req.header("idempotency-key") !== undefined)
        throw new Error("idempotency() runs after rateLimit(…, { idempotency: true })");
      return next();
    }
    const { key, fingerprint, begun } = request;
    if (begun.kind === "replay") {
      // Through the context, so headers set before the route ran (x-request-id) are kept.
      return c.body(begun.response.body, replayStatus(begun.response), {
        ...begun.response.headers,
        "idempotent-replayed": "true",
      });
    }
    if (begun.kind !== "run") {
      // A body that is not JSON (or not sent as JSON) is told so first, as it would be without the key.
      await readJsonBody(c.req, readConfig(c.env).maxBodyBytes);
      throw begun.kind === "mismatch" ? idempotencyKeyReused() : idempotencyInProgress(begun.retryAfterSeconds);
    }
    c.set("idempotentBatchId", begun.batchId);
    const limiter = limiterStub(c.env, c.get("apiKey"));
    await next();
    const status = c.res.status;
    if (status >= 200 && status < 300) {
      const headers: Record<string, string> = {
        "content-type": c.res.headers.get("content-type") ?? "application/json",
      };
      const location = c.res.headers.get("location");
      if (location) headers.location = location;
      try {
        await limiter.completeKey(key, fingerprint, { status, body: await c.res.clone().text(), headers });
      } catch (error) {
        // The batch exists and the record names it: a retry resumes it once the hold ends.
        logError("idempotency_complete_failed", error, { status });
      }
    } else if (status < 500 ? !begun.resumed : !(await batchMayExist(c.env, begun.batchId))) {
      await limiter.releaseKey(key, fingerprint);
    } else {
      // A server error may follow a batch that was created; a resumed request may
      // have found one made before a crash. Either way the batch id must stay.
      await limiter.abandonKey(key, fingerprint);
    }
  });

/**
 * After a server error: whether the batch may have been made, so the key must keep
 * its id. When the batch surely does not exist, the key is freed instead: a server
 * error never locks it for IDEMPOTENCY_TTL_SECONDS against a corrected request.
 */
async function batchMayExist(env: Env, batchId: string): Promise<boolean> {
  try {
    return await batchStub(env, batchId).exists();
  } catch {
    return true;
  }
}

// Only a 2xx answer is stored (see above).
const replayStatus = (response: StoredResponse) => response.status as ContentfulStatusCode;
