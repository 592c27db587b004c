// Black-box, in Node: real answers of `wrangler dev` validated against the OpenAPI
// document's own schemas by Ajv (JSON Schema 2020-12, what OpenAPI 3.1 uses), a
// validator nobody here wrote. (test/browser holds the Node checks of the public contract.)
import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_KEYS } from "../../scripts/dev-keys";
import type { LocalServer } from "../../scripts/local-server";
import { openApiDocument } from "../../src/openapi/document";
import { batchStatusExample, estimateExample, submitRequestExample } from "../../src/openapi/examples";
import { until } from "../until";
import { seededServer } from "./chromium";

const document = openApiDocument() as unknown as {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
};
const KEY = DEV_KEYS.find((key) => key.environment === "test")!.key;

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addFormat("date-time", (value: string) => !Number.isNaN(Date.parse(value)));
ajv.addFormat("uri", (value: string) => URL.canParse(value));
ajv.addSchema({ $id: "doc", components: document.components });

/** Ajv's errors for `body` against the schema the document gives `path`/`method`/`status`. */
function violations(path: string, method: string, status: number, mediaType: string, body: unknown) {
  const content = document.paths[path]?.[method]?.responses[String(status)]?.content?.[mediaType];
  if (!content) return [`${method} ${path} documents no ${status} ${mediaType}`];
  const schema = JSON.parse(JSON.stringify(content.schema).replaceAll('"#/components/', '"doc#/components/'));
  const validate = ajv.compile(schema);
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe("real responses conform to the OpenAPI document", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await seededServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { "x-api-key": KEY, "content-type": "application/json", ...init.headers },
    });
    return { response, body: await response.json() };
  };

  it("the estimate: its documented example and a real answer", async () => {
    const path = "/v2/{environment}/person/contact-info/estimate";
    expect(violations(path, "post", 200, "application/json", estimateExample)).toEqual([]);
    const estimate = await call("/v2/test/person/contact-info/estimate", {
      method: "POST",
      body: JSON.stringify(submitRequestExample),
    });
    expect(estimate.response.status).toBe(200);
    expect(estimate.body).toEqual(estimateExample);
    expect(violations(path, "post", 200, "application/json", estimate.body)).toEqual([]);
  });

  it("the documented examples, submit, batch status and rate limits", async () => {
    expect(
      violations("/v2/{environment}/person/contact-info/{id}", "get", 200, "application/json", batchStatusExample),
    ).toEqual([]);
    const submitted = await call("/v2/test/person/contact-info", {
      method: "POST",
      body: JSON.stringify(submitRequestExample),
    });
    expect(submitted.response.status).toBe(202);
    expect(
      violations("/v2/{environment}/person/contact-info", "post", 202, "application/json", submitted.body),
    ).toEqual([]);
    const status = await call(`${submitted.response.headers.get("location")}?limit=2`);
    expect(status.response.status).toBe(200);
    expect(
      violations("/v2/{environment}/person/contact-info/{id}", "get", 200, "application/json", status.body),
    ).toEqual([]);
    const limits = await call("/v2/test/me/rate-limits");
    expect(violations("/v2/{environment}/me/rate-limits", "get", 200, "application/json", limits.body)).toEqual([]);
  });

  it("privacy: an erasure's receipt, an erased item, and the suppression list", async () => {
    const email = `conformance-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const submitted = await call("/v2/test/person/contact-info", {
      method: "POST",
      body: JSON.stringify({ items: [{ email }] }),
    });
    const location = submitted.response.headers.get("location")!;
    // The erasure finds the batch once its report fed the account's index, within moments of the 202.
    const erasure = await until(
      () => call("/v2/test/privacy/erasures", { method: "POST", body: JSON.stringify({ email }) }),
      {
        what: "the erasure of the submitted person",
        done: ({ body }) => (body as { items: number }).items > 0,
      },
    );
    expect(erasure.body).toMatchObject({ items: 1, batches: 1 });
    expect(violations("/v2/{environment}/privacy/erasures", "post", 200, "application/json", erasure.body)).toEqual([]);
    const { id, erasedAt } = erasure.body as { id: string; erasedAt: string };
    const receipt = await call(`/v2/test/privacy/erasures/${id}`);
    expect(violations("/v2/{environment}/privacy/erasures/{id}", "get", 200, "application/json", receipt.body)).toEqual(
      [],
    );
    const status = await call(location);
    expect((status.body as { items: { erasedAt?: string }[] }).items[0]?.erasedAt).toBe(erasedAt);
    expect(
      violations("/v2/{environment}/person/contact-info/{id}", "get", 200, "application/json", status.body),
    ).toEqual([]);
    const added = await call("/v2/test/privacy/suppressions", {
      method: "PUT",
      body: JSON.stringify({ items: [{ email: `x${email}` }] }),
    });
    expect(violations("/v2/{environment}/privacy/suppressions", "put", 200, "application/json", added.body)).toEqual(
      [],
    );
    const list = await call("/v2/test/privacy/suppressions?limit=1");
    expect(violations("/v2/{environment}/privacy/suppressions", "get", 200, "application/json", list.body)).toEqual([]);
  });

  it("problems: 400, 401, 403, 404, 413 and 415 match their code's schema", async () => {
    const problem = "application/problem+json";
    const cases: [string, number, string, RequestInit][] = [
      ["/v2/{environment}/person/contact-info", 400, "/v2/test/person/contact-info", { method: "POST", body: "{" }],
      [
        "/v2/{environment}/person/contact-info",
        400,
        "/v2/test/person/contact-info",
        { method: "POST", body: JSON.stringify({ items: [] }) },
      ],
      [
        "/v2/{environment}/person/contact-info",
        401,
        "/v2/test/person/contact-info",
        { method: "POST", body: "{}", headers: { "x-api-key": "ck_test_nope" } },
      ],
      ["/v2/{environment}/person/contact-info", 403, "/v2/live/person/contact-info", { method: "POST", body: "{}" }],
      [
        "/v2/{environment}/person/contact-info",
        415,
        "/v2/test/person/contact-info",
        { method: "POST", body: "{}", headers: { "content-type": "text/plain" } },
      ],
      [
        "/v2/{environment}/person/contact-info",
        413,
        "/v2/test/person/contact-info",
        { method: "POST", body: JSON.stringify({ items: Array(20_000).fill({ email: "a@b.example" }) }) },
      ],
      [
        "/v2/{environment}/person/contact-info/estimate",
        400,
        "/v2/test/person/contact-info/estimate",
        { method: "POST", body: JSON.stringify({ items: [{ email: "a@b.example" }], maxCredits: -1 }) },
      ],
      [
        "/v2/{environment}/person/contact-info/estimate",
        415,
        "/v2/test/person/contact-info/estimate",
        { method: "POST", body: "{}", headers: { "content-type": "text/plain" } },
      ],
      [
        "/v2/{environment}/person/contact-info/{id}",
        400,
        "/v2/test/person/contact-info/3e1cab3a-0527-4fea-987c-d486f470829c?limit=0",
        {},
      ],
      [
        "/v2/{environment}/person/contact-info/{id}",
        404,
        "/v2/test/person/contact-info/3e1cab3a-0527-4fea-987c-d486f470829c",
        {},
      ],
    ];
    for (const [documented, status, url, init] of cases) {
      const { response, body } = await call(url, init);
      expect({ url, status: response.status }).toEqual({ url, status });
      expect({
        url,
        violations: violations(documented, init.method?.toLowerCase() ?? "get", status, problem, body),
      }).toEqual({
        url,
        violations: [],
      });
    }
  });
});
