import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ApiKeyRecord, issueApiKey, kvKey } from "../../src/keys/api-key";
import { lookupApiKey } from "../../src/keys/key-lookup";
import { createKey, expectProblem, request } from "../helpers";
import { captureLogs } from "../log-capture";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("API key lookup", () => {
  it("serves a cached record for at most the TTL, so a revocation lands within it", async () => {
    const { hash, record } = await createKey();
    // Only Date is faked: the clock the lookup reads, and nothing it awaits.
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    expect(await lookupApiKey(env.API_KEYS, hash, 60)).toMatchObject({ keyId: record.keyId });
    await env.API_KEYS.put(kvKey.byHash(hash), JSON.stringify({ ...record, revokedAt: new Date(t0).toISOString() }));
    // Within the isolate's share of the TTL the old record may still be served…
    vi.setSystemTime(t0 + 10_000);
    expect((await lookupApiKey(env.API_KEYS, hash, 60))?.revokedAt).toBeUndefined();
    // …after it, the lookup goes back to KV (whose own cacheTtl covers the rest of the 60 s).
    vi.setSystemTime(t0 + 30_001);
    expect((await lookupApiKey(env.API_KEYS, hash, 60))?.revokedAt).toBeDefined();
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

describe("a key record KV holds that is not a valid record", () => {
  const flaws: [string, (record: ApiKeyRecord) => unknown][] = [
    ["an unknown environment", (record) => ({ ...record, environment: "staging" })],
    ["no customer", ({ customerId: _customerId, ...record }) => record],
    [
      "a limit that is not a number",
      (record) => ({ ...record, rateLimits: { contact_info_status: { limit: "many", windowSeconds: 60 } } }),
    ],
  ];

  it("is not found by the lookup, and is logged by its key id only", async () => {
    const logs = captureLogs();
    const { hash, record } = await createKey();
    await env.API_KEYS.put(kvKey.byHash(hash), JSON.stringify({ ...record, environment: "staging" }));
    expect(await lookupApiKey(env.API_KEYS, hash, 30)).toBeNull();
    expect(logs.events("api_key_record_invalid").map(({ event, keyId }) => ({ event, keyId }))).toEqual([
      { event: "api_key_record_invalid", keyId: record.keyId },
    ]);
    expect(logs.events("api_key_record_invalid")[0]!.raw).toBe(
      JSON.stringify({ event: "api_key_record_invalid", keyId: record.keyId }),
    );
  });

  it("is not found when it is not JSON at all", async () => {
    const { hash } = await createKey();
    await env.API_KEYS.put(kvKey.byHash(hash), "{not json");
    expect(await lookupApiKey(env.API_KEYS, hash, 30)).toBeNull();
  });

  it.each(flaws)("with %s answers 401 invalid_api_key, as an unknown key does", async (_flaw, spoil) => {
    const { key, hash, record } = await createKey();
    await env.API_KEYS.put(kvKey.byHash(hash), JSON.stringify(spoil(record)));
    await expectProblem(await request("/v2/test/me/rate-limits", { key }), 401, "invalid_api_key");
  });
});
