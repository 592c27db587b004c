import { ByteBudgetCache, stringBytes } from "../base/byte-budget-cache";
import { log } from "../base/log";
import { type ApiKeyRecord, apiKeyRecordSchema, kvKey } from "./api-key";

// KV refuses a cacheTtl under 30 seconds.
const KV_MIN_CACHE_TTL_SECONDS = 30;
// Records are counted at the size of their stored JSON (the parsed strings are no longer):
// a few thousand typical records. A record's size is not bounded by its schema, hence bytes.
const KEY_CACHE_BUDGET_BYTES = 4 * 1024 * 1024;

const isolateCache = new ByteBudgetCache<{ record: ApiKeyRecord; expiresAt: number }>(KEY_CACHE_BUDGET_BYTES);

/**
 * The key record for a SHA-256, from two caches that together never serve a
 * record older than `ttlSeconds`: this isolate's memory (no I/O on the hot path)
 * for part of it, KV's edge cache (`cacheTtl`) for the rest. A revocation or a
 * limit change therefore reaches every request within `ttlSeconds`.
 */
export async function lookupApiKey(kv: KVNamespace, hash: string, ttlSeconds: number): Promise<ApiKeyRecord | null> {
  const now = Date.now();
  const cached = isolateCache.get(hash);
  if (cached && cached.expiresAt > now) return cached.record;
  isolateCache.delete(hash);

  const kvTtl = Math.max(KV_MIN_CACHE_TTL_SECONDS, Math.floor(ttlSeconds / 2));
  const stored = await kv.get(kvKey.byHash(hash), { type: "text", cacheTtl: kvTtl });
  const record = parseRecord(stored);
  const memoryTtl = ttlSeconds - kvTtl;
  // Unknown keys are not remembered here, so a key works as soon as KV has it.
  if (record && stored !== null && memoryTtl > 0)
    isolateCache.set(hash, { record, expiresAt: now + memoryTtl * 1000 }, stringBytes(stored));
  return record;
}

/** A stored record, or null when there is none or it is not one we can trust (then the key counts as unknown). */
function parseRecord(stored: string | null): ApiKeyRecord | null {
  if (stored === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    json = undefined;
  }
  const parsed = apiKeyRecordSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  // The record names its key id at best; nothing else of it is logged.
  const keyId =
    json !== null && typeof json === "object" && "keyId" in json && typeof json.keyId === "string" ? json.keyId : null;
  log("api_key_record_invalid", { keyId });
  return null;
}
