import { describe, expect, it } from "vitest";
import { MAX_PAGE_SIZE } from "../../src/contact-info/status-query";
import { WEBHOOK_EVENTS } from "../../src/contact-info/webhook-events";
import { ERROR_CODES } from "../../src/http/error-codes";
import { createKey, request } from "../helpers";

type Document = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, unknown>; parameters?: { name: string; in: string }[] }>
  >;
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
};

const documentOf = async () => (await request("/openapi.json")).json<Document>();

describe("GET /openapi.json", () => {
  it("serves an OpenAPI 3.1 document without a key", async () => {
    const response = await request("/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await response.json<Document>()).openapi).toBe("3.1.0");
  });

  it("documents the headers integrators need", async () => {
    const text = JSON.stringify(await documentOf());
    for (const name of ["x-api-key", "Idempotency-Key", "RateLimit", "RateLimit-Policy", "Retry-After", "Location"]) {
      expect(text).toContain(`"${name}"`);
    }
  });

  it("documents each authenticated operation's problems, including 401, 403 and 429", async () => {
    const { paths } = await documentOf();
    for (const path of Object.keys(paths).filter((p) => p.startsWith("/v2/"))) {
      for (const operation of Object.values(paths[path]!)) {
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["401", "403", "429"]));
      }
    }
    expect(Object.keys(paths["/v2/{environment}/person/contact-info/{id}"]!.get!.responses)).toContain("410");
  });

  it("describes the query the status route validates, and the webhook it sends", async () => {
    const document = await documentOf();
    const parameters = document.paths["/v2/{environment}/person/contact-info/{id}"]!.get!.parameters!;
    expect(parameters.filter((p) => p.in === "query").map((p) => p.name)).toEqual(["limit", "cursor", "status"]);
    // A batch's own events, and the budget's, which only webhook endpoints get.
    expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENTS, "budget.threshold"]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["SubmitRequest", "BatchStatus", "Item", "RateLimitedProblem", "TooManyItemsProblem"]),
    );
  });
});

describe("how the document says to call the API", () => {
  it("asks for x-api-key once, as the security scheme of the /v2 operations, and for nothing elsewhere", async () => {
    const document = (await documentOf()) as Document & { components: { securitySchemes: Record<string, unknown> } };
    expect(document.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
    });
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const operation of Object.values(operations) as { security?: unknown; parameters?: { name: string }[] }[]) {
        expect(operation.security).toEqual(path.startsWith("/v2/") ? [{ apiKey: [] }] : []);
        expect((operation.parameters ?? []).map((p) => p.name.toLowerCase())).not.toContain("x-api-key");
      }
    }
  });

  it("states the submit body's rules across fields, and the Worker holds to them", async () => {
    const { components } = await documentOf();
    expect(components.schemas.SubmitRequest).toMatchObject({
      oneOf: [{ required: ["items"] }, { required: ["source"] }],
      dependentRequired: { webhookEvents: ["webhookUrl"] },
    });
    const { key } = await createKey();
    const items = [{ email: "ada@example.com" }];
    const broken = [
      { items, webhookEvents: ["batch.completed"] },
      { items, source: { provider: "hubspot", listId: "1" } },
      {},
    ];
    for (const body of broken) {
      const response = await request("/v2/test/person/contact-info", {
        method: "POST",
        key,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ code: "invalid_request" });
    }
  });

  it("types limit as an integer from 1 to the page size the Worker enforces, and requires Location on 202", async () => {
    const { paths } = await documentOf();
    const get = paths["/v2/{environment}/person/contact-info/{id}"]!.get! as unknown as {
      parameters: { name: string; schema: object }[];
    };
    expect(get.parameters.find((p) => p.name === "limit")?.schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: MAX_PAGE_SIZE,
    });
    const accepted = (
      paths["/v2/{environment}/person/contact-info"]!.post!.responses as Record<
        string,
        { headers: Record<string, { required?: boolean }> }
      >
    )["202"]!;
    expect(accepted.headers.Location?.required).toBe(true);
    expect(Object.keys(accepted.headers)).toEqual(expect.arrayContaining(["Idempotent-Replayed", "x-request-id"]));
  });

  it("documents the webhook URL rule and that live resolves names, refusing those that resolve inside", async () => {
    const text = JSON.stringify(await documentOf());
    const [description] = /Where to POST the signed events[^"]*/.exec(text) ?? [""];
    for (const words of [
      "https, port 443 or from 1024 up",
      "public unicast",
      ".test, .example, .invalid, .onion, .home.arpa, .home, .corp, .lan, .svc and .intranet",
      "localtest.me",
      "DNS-over-HTTPS",
      "Each delivery checks again first",
      "never followed",
    ]) {
      expect(description).toContain(words);
    }
  });

  it("has a schema for every error code the Worker knows", async () => {
    const { components } = await documentOf();
    const codes = Object.values(components.schemas).flatMap((schema) => {
      const code = (schema as { properties?: { code?: { enum?: string[] } } }).properties?.code?.enum;
      return code?.length === 1 ? code : [];
    });
    expect(new Set(codes)).toEqual(new Set(Object.keys(ERROR_CODES)));
  });
});

describe("GET /docs", () => {
  it("serves the reference page, built from /openapi.json with a script from this origin", async () => {
    const response = await request("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain("/openapi.json");
    expect(html).toContain('src="/docs/scalar.js"');
    expect(html).not.toContain("cdn.jsdelivr.net");
  });
});

describe("GET /", () => {
  it("points to the reference, the document and the health check, without a key", async () => {
    const response = await request("/");
    expect(response.status).toBe(200);
    const index = await response.json<Record<string, string>>();
    expect(index).toMatchObject({ docs: "/docs", openapi: "/openapi.json", health: "/healthz" });
    for (const path of [index.docs, index.openapi, index.health]) expect((await request(path!)).status).toBe(200);
    expect(index.app).toBe("/app");
  });

  it("gives a browser a page of links to the console and the reference, with no script", async () => {
    const response = await request("/", { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('href="/app"');
    expect(html).toContain('href="/docs"');
    expect(html).not.toContain("<script");
  });
});
