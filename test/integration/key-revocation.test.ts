import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminApi } from "../../src/admin/admin-api";
import { app } from "../../src/app";
import { kvKey } from "../../src/keys/api-key";
import { createKey, envWith, request } from "../helpers";

const ADMIN_TOKEN = "adm_testtoken"; // vitest.config.ts

const revoke = (body: unknown, token = ADMIN_TOKEN) =>
  exports.default.fetch(
    new Request("https://api.test/admin/revocations", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );

const usage = (key: string) => request("/v2/test/me/usage", { key });

describe("a revoked key is refused at once by its customer's limiter", () => {
  it("answers 401 invalid_api_key from the next request, though auth still holds the active record", async () => {
    const { key, hash, record } = await createKey();
    const sibling = await createKey({ customerId: record.customerId });
    expect((await usage(key)).status).toBe(200); // the record is now cached in this isolate

    expect((await revoke({ keyId: record.keyId, customerId: record.customerId, environment: "test" })).status).toBe(
      204,
    );

    for (const path of ["/v2/test/me/usage", "/v2/test/me/rate-limits", "/v2/test/person/contact-info"]) {
      const refused = await request(path, { key });
      expect(refused.status, path).toBe(401);
      expect((await refused.json<{ code: string }>()).code).toBe("invalid_api_key");
    }
    const submit = await request("/v2/test/person/contact-info", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ items: [{ email: "a@b.example" }] }),
    });
    expect(submit.status).toBe(401);
    // KV still says active: the refusal came from the limiter, not from a fresh record.
    expect(JSON.parse((await env.API_KEYS.get(kvKey.byHash(hash)))!).revokedAt).toBeUndefined();
    // The customer's other key is not affected.
    expect((await usage(sibling.key)).status).toBe(200);
  });

  it("is idempotent", async () => {
    const { key, record } = await createKey();
    const body = { keyId: record.keyId, customerId: record.customerId, environment: "test" };
    expect((await revoke(body)).status).toBe(204);
    expect((await revoke(body)).status).toBe(204);
    expect((await usage(key)).status).toBe(401);
  });
});

describe("the admin API", () => {
  it("answers 404, as a missing path, without the right token", async () => {
    const { key, record } = await createKey();
    const body = { keyId: record.keyId, customerId: record.customerId, environment: "test" };
    expect((await revoke(body, "adm_wrong")).status).toBe(404);
    const bare = await exports.default.fetch(
      new Request("https://api.test/admin/revocations", { method: "POST", body: "{}" }),
    );
    expect(bare.status).toBe(404);
    expect((await usage(key)).status).toBe(200);
  });

  it("does not exist when ADMIN_TOKEN is not set", async () => {
    const response = await adminApi.request(
      "https://api.test/admin/revocations",
      { method: "POST", headers: { authorization: "Bearer " }, body: "{}" },
      envWith({ ADMIN_TOKEN: undefined }),
    );
    expect(response.status).toBe(404);
  });

  it("refuses a body that is not a revocation with 400", async () => {
    const response = await revoke({ keyId: "key_x" });
    expect(response.status).toBe(400);
    expect((await response.json<{ code: string }>()).code).toBe("invalid_request");
  });
});

describe("a valid key's request costs no extra round trip", () => {
  it("makes one limiter call and, once its record is cached, no KV read", async () => {
    const { key } = await createKey();
    const calls: string[] = [];
    const counting = envWith({
      API_KEYS: new Proxy(env.API_KEYS, {
        get: (target, name) => {
          const value = Reflect.get(target, name);
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            calls.push(`kv.${String(name)}`);
            return value.apply(target, args);
          };
        },
      }),
      RATE_LIMITER: new Proxy(env.RATE_LIMITER, {
        get: (target, name) => {
          const value = Reflect.get(target, name);
          if (name !== "getByName" && name !== "get") return typeof value === "function" ? value.bind(target) : value;
          return (...args: unknown[]) => {
            const stub = value.apply(target, args);
            return new Proxy(stub, {
              get: (s, method) => {
                const m = Reflect.get(s, method);
                return (...a: unknown[]) => {
                  calls.push(`limiter.${String(method)}`);
                  return Reflect.apply(m as (...x: unknown[]) => unknown, s, a);
                };
              },
            });
          };
        },
      }),
    });
    const call = () =>
      app.request("https://api.test/v2/test/me/rate-limits", { headers: { "x-api-key": key } }, counting);
    expect((await call()).status).toBe(200); // reads the record from KV, and caches it
    calls.length = 0;
    expect((await call()).status).toBe(200);
    expect(calls).toEqual(["limiter.admit"]);
  });
});
