import { type ApiKeyRecord, kvKey } from "./api-key";

// KV refuses a cacheTtl under 30 seconds.
const KV_MIN_CACHE_TTL_SECONDS = 30;
const MAX_CACHED_KEYS = 10_000;

const isolateCache = new Map<string, { record: ApiKeyRecord; expiresAt: number }>();

/**
 * The key record for a SHA-256, from two caches that together never serve a
 * record older than `ttlSeconds`: this isolate's memory (no I/O on the hot path)
 * for part of it, KV's edge cache (`cacheTtl`) for the rest. A revocation or a
 * limit change therefore reaches every request within `ttlSeconds`.
 */
export async function lookupApiKey(kv: KVNamespace, hash: string, ttlSeconds: number, now = Date.now()): Promise<ApiKeyRecord | null> {
  const cached = isolateCache.get(hash);
  if (cached && cached.expiresAt > now) return cached.record;
  isolateCache.delete(hash);

  const kvTtl = Math.max(KV_MIN_CACHE_TTL_SECONDS, Math.floor(ttlSeconds / 2));
  const record = await kv.get<ApiKeyRecord>(kvKey.byHash(hash), { type: "json", cacheTtl: kvTtl });
  const memoryTtl = ttlSeconds - kvTtl;
  // Unknown keys are not remembered here, so a key works as soon as KV has it.
  if (record && memoryTtl > 0) {
    if (isolateCache.size >= MAX_CACHED_KEYS) isolateCache.delete(isolateCache.keys().next().value!);
    isolateCache.set(hash, { record, expiresAt: now + memoryTtl * 1000 });
  }
  return record;
}
