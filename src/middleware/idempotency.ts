import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { readConfig } from "../config";
import { readBodyBytes } from "../http/body";
import { ApiError, badRequest } from "../http/problem";

const MAX_KEY_LENGTH = 255;
// Visible ASCII: what the draft's sf-string allows, minus quotes and backslashes.
const KEY_PATTERN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export async function requestFingerprint(method: string, path: string, body: ArrayBuffer): Promise<string> {
  const prefix = new TextEncoder().encode(`${method} ${path}\n`);
  const data = new Uint8Array(prefix.byteLength + body.byteLength);
  data.set(prefix);
  data.set(new Uint8Array(body), prefix.byteLength);
  const digest = await crypto.subtle.digest("SHA-256", data);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header, Stripe-like),
 * scoped to the API key and kept IDEMPOTENCY_TTL_SECONDS: the same key with the
 * same body replays the first answer; with another body, 422; while the first
 * request is still running, 409. Only a successful answer is stored: after an
 * error the key is free again, so a retry runs afresh.
 */
export const idempotency = () =>
  createMiddleware<AppEnv>(async function idempotency(c, next) {
    const key = c.req.header("idempotency-key");
    if (key === undefined) return next();
    if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
      throw badRequest("invalid_idempotency_key", `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters.`, [
        { path: "Idempotency-Key", message: `1 to ${MAX_KEY_LENGTH} visible ASCII characters` },
      ]);
    }
    const config = readConfig(c.env);
    const print = await requestFingerprint(c.req.method, c.req.path, await readBodyBytes(c.req, config.maxBodyBytes));
    const store = c.env.IDEMPOTENCY.get(c.env.IDEMPOTENCY.idFromName(c.get("apiKey").keyId));
    const begun = await store.begin(key, print, config.idempotencyTtlSeconds);
    switch (begun.kind) {
      case "replay":
        return new Response(begun.response.body, {
          status: begun.response.status,
          headers: { ...begun.response.headers, "idempotent-replayed": "true" },
        });
      case "mismatch":
        throw new ApiError({
          status: 422,
          code: "idempotency_key_reused",
          title: "Unprocessable Content",
          detail: "This Idempotency-Key was already used with a different request body. Use a new key for a new request.",
        });
      case "in_progress":
        throw new ApiError({
          status: 409,
          code: "idempotency_in_progress",
          title: "Conflict",
          detail: "A request with this Idempotency-Key is still being processed. Retry shortly.",
          headers: { "retry-after": "1" },
        });
    }
    await next();
    if (c.res.status >= 200 && c.res.status < 300) {
      const headers: Record<string, string> = { "content-type": c.res.headers.get("content-type") ?? "application/json" };
      const location = c.res.headers.get("location");
      if (location) headers.location = location;
      await store.complete(key, print, { status: c.res.status, body: await c.res.clone().text(), headers });
    } else {
      await store.release(key, print);
    }
  });
