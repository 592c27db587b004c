import { readConfig } from "../base/config";
import { invalidApiKey, missingApiKey } from "../http/errors";
import { API_KEY_PATTERN, type ApiKeyRecord, hashApiKey } from "../keys/api-key";
import { lookupApiKey } from "../keys/key-lookup";

/**
 * The record of a presented API key (looked up by SHA-256, cached for at most
 * API_KEY_CACHE_TTL_SECONDS); 401 for none, an unknown one or a revoked one. A key revoked
 * since its record was cached is refused by admit(), whose limiter holds the customer's revocations.
 */
export async function authenticate(env: Env, apiKey: string | undefined): Promise<ApiKeyRecord> {
  if (!apiKey) throw missingApiKey();
  const record = API_KEY_PATTERN.test(apiKey)
    ? await lookupApiKey(env.API_KEYS, await hashApiKey(apiKey), readConfig(env).apiKeyCacheTtlSeconds)
    : null;
  if (!record || record.revokedAt) throw invalidApiKey();
  return record;
}
