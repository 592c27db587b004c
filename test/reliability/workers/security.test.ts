import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { kvKey } from "../../../src/keys/api-key";
import { createKey, expectProblem, person, request, submitBatch } from "../../helpers";

describe("security", () => {
  afterEach(() => vi.useRealTimers());

  it("stores API keys only as SHA-256 hashes", async () => {
    const issued = await Promise.all(Array.from({ length: 5 }, () => createKey()));
    let cursor: string | undefined;
    const stored: string[] = [];
    do {
      const page = await env.API_KEYS.list(cursor ? { cursor } : {});
      for (const { name } of page.keys) stored.push(name, (await env.API_KEYS.get(name)) ?? "");
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    const everything = stored.join("\n");
    for (const { key, hash } of issued) {
      expect(everything).not.toContain(key);
      expect(everything).toContain(kvKey.byHash(hash));
    }
  });

  it("answers 404 to every other customer and to the other environment", async () => {
    const owner = await createKey();
    const batchId = await submitBatch(owner.key, { items: [person()] });
    const strangers = await Promise.all([
      createKey(),
      createKey(),
      createKey({ environment: "live" }),
      createKey({ customerId: owner.record.customerId, environment: "live" }),
    ]);
    for (const stranger of strangers) {
      await expectProblem(
        await request(`/v2/${stranger.record.environment}/person/contact-info/${batchId}`, { key: stranger.key }),
        404,
        "not_found",
      );
    }
  });

  it("refuses a revoked key once API_KEY_CACHE_TTL_SECONDS has passed, even after it was cached", async () => {
    const { key, hash, record } = await createKey();
    expect((await request("/v2/test/me/rate-limits", { key })).status).toBe(200);
    await env.API_KEYS.put(kvKey.byHash(hash), JSON.stringify({ ...record, revokedAt: new Date().toISOString() }));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    await expectProblem(await request("/v2/test/me/rate-limits", { key }), 401, "invalid_api_key");
  });
});
