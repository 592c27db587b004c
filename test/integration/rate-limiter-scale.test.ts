import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config";
import { effectiveSettings } from "../../src/rate-limit/endpoint-types";
import { limiterStub } from "../../src/rate-limit/stub";
import { createKey, request } from "../helpers";

const STORED_HITS = 100_000;
// Generous for the test runtime on a shared machine; the old limiter took seconds here.
const BOUND_MS = 100;

async function timed(response: Promise<Response>) {
  const started = Date.now();
  const { status } = await response;
  return { status, ms: Date.now() - started };
}

describe("a limiter with a large limit", () => {
  it(`decides within ${BOUND_MS} ms after eviction with ${STORED_HITS} stored hits, without delaying another customer`, {
    timeout: 180_000,
  }, async () => {
    const large = { contact_info_status: { limit: 1_000_000, windowSeconds: 86_400 } };
    const { key, record } = await createKey({ rateLimits: large });
    const other = await createKey();
    const stub = limiterStub(env, record);
    const limits = effectiveSettings(readConfig(env), large);
    const seeded = await runInDurableObject(stub, (limiter) => {
      let allowed = 0;
      for (let i = 0; i < STORED_HITS; i++) if (limiter.consume("contact_info_status", limits).decision.allowed) allowed++;
      return allowed;
    });
    expect(seeded).toBe(STORED_HITS);
    // The other customer's limiter is already running, so its timing measures only waiting on the first.
    expect((await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key: other.key })).status).toBe(404);

    await evictDurableObject(stub);
    const [heavy, light] = await Promise.all([
      timed(request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key })),
      timed(request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key: other.key })),
    ]);
    console.log(`after eviction with ${STORED_HITS} hits: this customer ${heavy.ms} ms, another customer ${light.ms} ms`);
    expect(heavy.status).toBe(404);
    expect(light.status).toBe(404);
    expect(heavy.ms).toBeLessThan(BOUND_MS);
    expect(light.ms).toBeLessThan(BOUND_MS);

    const report = await (await request("/v2/test/me/rate-limits", { key })).json<{ endpointType: string; used: number }[]>();
    expect(report.find((entry) => entry.endpointType === "contact_info_status")?.used).toBe(STORED_HITS + 1);
  });
});
