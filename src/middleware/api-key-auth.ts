import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { readConfig } from "../config";
import { environmentMismatch, invalidApiKey, missingApiKey } from "../http/errors";
import { API_KEY_PATTERN, hashApiKey } from "../keys/api-key";
import { lookupApiKey } from "../keys/key-lookup";

/**
 * Resolves `x-api-key` to its record (looked up by SHA-256, cached for at most
 * API_KEY_CACHE_TTL_SECONDS) and checks it belongs to this environment.
 */
export const apiKeyAuth = () =>
  createMiddleware<AppEnv>(async function apiKeyAuth(c, next) {
    const apiKey = c.req.header("x-api-key");
    if (!apiKey) throw missingApiKey();
    const record = API_KEY_PATTERN.test(apiKey)
      ? await lookupApiKey(c.env.API_KEYS, await hashApiKey(apiKey), readConfig(c.env).apiKeyCacheTtlSeconds)
      : null;
    if (!record || record.revokedAt) throw invalidApiKey();
    const environment = c.get("environment");
    if (record.environment !== environment) throw environmentMismatch(record.environment);
    c.set("apiKey", record);
    await next();
  });
