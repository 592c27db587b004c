import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { kvKey } from "../../src/keys/api-key";
import { createKey, expectProblem, request, submit } from "../helpers";

describe("authentication", () => {
  it("refuses a request without x-api-key with 401 missing_api_key", async () => {
    const response = await request("/v2/test/me/rate-limits");
    await expectProblem(response, 401, "missing_api_key");
    expect(response.headers.get("www-authenticate")).toContain("x-api-key");
  });

  it.each(["ck_test_unknownunknownunknownunknown00", "not-a-key", "ck_test_short"])(
    "refuses an unknown or malformed key %j with 401 invalid_api_key",
    async (key) => {
      await expectProblem(await request("/v2/test/me/rate-limits", { key }), 401, "invalid_api_key");
    },
  );

  it("refuses a revoked key with 401 invalid_api_key", async () => {
    const { key, hash, record } = await createKey();
    await env.API_KEYS.put(kvKey.byHash(hash), JSON.stringify({ ...record, revokedAt: new Date().toISOString() }));
    await expectProblem(await request("/v2/test/me/rate-limits", { key }), 401, "invalid_api_key");
  });

  it("refuses a test key on live, and a live key on test, with 403 environment_mismatch", async () => {
    const test = await createKey({ environment: "test" });
    const live = await createKey({ environment: "live" });
    await expectProblem(await request("/v2/live/me/rate-limits", { key: test.key }), 403, "environment_mismatch");
    await expectProblem(
      await submit(live.key, { items: [{ email: "a@b.example" }] }, "test"),
      403,
      "environment_mismatch",
    );
  });

  it("answers 404 for an unknown environment before looking at the key", async () => {
    await expectProblem(await request("/v2/staging/me/rate-limits"), 404, "not_found");
  });
});

describe("routing", () => {
  it("answers /healthz without a key", async () => {
    const response = await request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers unknown paths with a problem+json 404", async () => {
    await expectProblem(await request("/v1/test/person/contact-info"), 404, "not_found");
    await expectProblem(await request("/nope"), 404, "not_found");
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const { key } = await createKey();
    const response = await request("/v2/test/person/contact-info", { key, method: "PUT" });
    await expectProblem(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("GET, POST");
    const batch = await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key, method: "POST" });
    await expectProblem(batch, 405, "method_not_allowed");
    expect(batch.headers.get("allow")).toBe("GET, DELETE");
    const rateLimits = await request("/v2/test/me/rate-limits", { key, method: "DELETE" });
    await expectProblem(rateLimits, 405, "method_not_allowed");
  });

  it("tags every response with a fresh UUID request id when Cloudflare gave no Ray ID", async () => {
    const response = await request("/v2/test/me/rate-limits");
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The same id the problem body carries, so a report can quote either.
    expect((await response.json<{ requestId: string }>()).requestId).toBe(id);
    expect((await request("/healthz")).headers.get("x-request-id")).not.toBe(id);
  });

  it("uses the Cloudflare Ray ID as the request id, and never a client's own x-request-id", async () => {
    expect(
      (await request("/healthz", { headers: { "cf-ray": "8f1c2d3e4a5b6c7d-AMS" } })).headers.get("x-request-id"),
    ).toBe("8f1c2d3e4a5b6c7d-AMS");
    const response = await request("/healthz", { headers: { "x-request-id": "chosen-by-client" } });
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
