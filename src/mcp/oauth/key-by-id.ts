import { type ApiKeyRecord, kvKey } from "../../keys/api-key";
import { lookupApiKey } from "../../keys/key-lookup";

// keyId → hash never changes once written: KV's edge may keep it for as long as it likes.
const ID_ENTRY_CACHE_SECONDS = 3600;

/** A key's record by its id (what a connection names), through the same caches as a presented key. */
export async function keyRecordById(env: Env, keyId: string, ttlSeconds: number): Promise<ApiKeyRecord | null> {
  const hash = await env.API_KEYS.get(kvKey.byId(keyId), { type: "text", cacheTtl: ID_ENTRY_CACHE_SECONDS });
  return hash === null ? null : lookupApiKey(env.API_KEYS, hash, ttlSeconds);
}
