import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { lookupApiKey } from "../../src/keys/key-lookup";
import { issueApiKey, kvKey } from "../../src/keys/api-key";
import { createKey } from "../helpers";

describe("API key lookup", () => {
  it("serves a cached record for at most the TTL, so a revocation lands within it", async () => {
    const { hash, record } = await createKey();
    const t0 = Date.now();
    expect(await lookupApiKey(env.API_KEYS, hash, 60, t0)).toMatchObject({ keyId: record.keyId });
    await env.API_KEYS.put(kvKey.byHash(hash), JSON.stringify({ ...record, revokedAt: new Date(t0).toISOString() }));
    // Within the isolate's share of the TTL the old record may still be served…
    expect((await lookupApiKey(env.API_KEYS, hash, 60, t0 + 10_000))?.revokedAt).toBeUndefined();
    // …after it, the lookup goes back to KV (whose own cacheTtl covers the rest of the 60 s).
    expect((await lookupApiKey(env.API_KEYS, hash, 60, t0 + 30_001))?.revokedAt).toBeDefined();
  });

  it("does not remember unknown keys, so a new key works at once", async () => {
    const { hash, record } = await issueApiKey({ customerId: "cus_new", environment: "test" });
    expect(await lookupApiKey(env.API_KEYS, hash, 60)).toBeNull();
    await env.API_KEYS.put(kvKey.byHash(hash), JSON.stringify(record));
    expect(await lookupApiKey(env.API_KEYS, hash, 60)).toMatchObject({ keyId: record.keyId });
  });

  it("skips the isolate cache when the TTL is KV's minimum", async () => {
    const { hash, record } = await createKey();
    await lookupApiKey(env.API_KEYS, hash, 30);
    await env.API_KEYS.put(kvKey.byHash(hash), JSON.stringify({ ...record, name: "renamed" }));
    expect((await lookupApiKey(env.API_KEYS, hash, 30))?.name).toBe("renamed");
  });
});
