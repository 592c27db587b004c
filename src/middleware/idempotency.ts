import { createMiddleware } from "hono/factory";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../app-env";
import { readConfig } from "../base/config";
import { logError } from "../base/log";
import { sha256Hex } from "../base/sha256";
import { tenantOf } from "../base/tenant";
import { batchStub } from "../batch/stub";
import { readBodyBytes } from "../http/body";
import { idempotencyInProgress, idempotencyKeyReused, invalidIdempotencyKey } from "../http/errors";
import type { StoredResponse } from "../idempotency/idempotency-store";
import { KEY_PATTERN, MAX_KEY_LENGTH } from "../idempotency/record-policy";
import { idempotencyStore } from "../idempotency/stub";

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
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header, Stripe-like),
 * scoped to the customer and environment and kept IDEMPOTENCY_TTL_SECONDS: the
 * same key with the same request replays the first answer; with another, 422;
 * while the first request is still running, 409. The handler creates the batch
 * under `idempotentBatchId`, so a retry after a crash reaches the same batch.
 * A 2xx answer is stored; after a client error the key is free again, so a
 * corrected retry runs; after a server error the key keeps its batch id if the
 * batch was made, and is free again if not.
 */
export const idempotency = () =>
  createMiddleware<IdempotencyEnv>(async function idempotency(c, next) {
    const key = c.req.header("idempotency-key");
    if (key === undefined) return next();
    if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
      throw invalidIdempotencyKey(MAX_KEY_LENGTH);
    }
    const config = readConfig(c.env);
    const url = new URL(c.req.url);
    const print = await requestFingerprint(
      { method: c.req.method, path: url.pathname, query: url.search, contentType: c.req.header("content-type") },
      await readBodyBytes(c.req, config.maxBodyBytes),
    );
    const store = idempotencyStore(c.env, tenantOf(c.get("apiKey")));
    const begun = await store.begin(key, print, config.idempotencyTtlSeconds, c.get("apiKey").jurisdiction);
    switch (begun.kind) {
      case "replay":
        // Through the context, so headers set before the route ran (x-request-id) are kept.
        return c.body(begun.response.body, replayStatus(begun.response), {
          ...begun.response.headers,
          "idempotent-replayed": "true",
        });
      case "mismatch":
        throw idempotencyKeyReused();
      case "in_progress":
        throw idempotencyInProgress(begun.retryAfterSeconds);
    }
    c.set("idempotentBatchId", begun.batchId);
    await next();
    const status = c.res.status;
    if (status >= 200 && status < 300) {
      const headers: Record<string, string> = {
        "content-type": c.res.headers.get("content-type") ?? "application/json",
      };
      const location = c.res.headers.get("location");
      if (location) headers.location = location;
      try {
        await store.complete(key, print, { status, body: await c.res.clone().text(), headers });
      } catch (error) {
        // The batch exists and the record names it: a retry resumes it once the hold ends.
        logError("idempotency_complete_failed", error, { status });
      }
    } else if (status < 500 ? !begun.resumed : !(await batchMayExist(c.env, begun.batchId))) {
      await store.release(key, print);
    } else {
      // A server error may follow a batch that was created; a resumed request may
      // have found one made before a crash. Either way the batch id must stay.
      await store.abandon(key, print);
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
