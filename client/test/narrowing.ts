// Compile-time only (npm run typecheck): a client generated from the document with
// openapi-typescript, used the natural way through plain openapi-fetch (key set once,
// `limit` a number, `switch` on the problem code), type-checks under --strict and
// narrows each problem to its own members.
import createClient from "openapi-fetch";
import type { paths } from "../src/schema";

const api = createClient<paths>({
  baseUrl: "http://127.0.0.1:8787",
  headers: { "x-api-key": "ck_test_localdevelopmentkey0000000000000" },
});

export async function firstPage(id: string): Promise<number> {
  const { data, error } = await api.GET("/v2/{environment}/person/contact-info/{id}", {
    params: { path: { environment: "test", id }, query: { limit: 100, status: "completed" } },
  });
  if (data) return data.items.length;
  switch (error.code) {
    case "rate_limited": {
      const seconds: number = error.retryAfterSeconds;
      const perWindow: number = error.limit;
      return seconds + perWindow;
    }
    case "batch_expired":
      return Date.parse(error.expiredAt);
    case "invalid_query":
      return error.errors.length;
    default:
      return error.status;
  }
}

export async function submit(): Promise<string> {
  const { data, error, response } = await api.POST("/v2/{environment}/person/contact-info", {
    params: { path: { environment: "test" }, header: { "Idempotency-Key": "crm-sync-1" } },
    body: { items: [{ email: "ada@analytical.example" }], fields: ["email"] },
  });
  if (data) return response.headers.get("Location") ?? data.batchId;
  if (error.code === "too_many_items") return `at most ${error.maxItems satisfies number}`;
  if (error.code === "payload_too_large") return `at most ${error.maxBytes satisfies number} bytes`;
  if (error.code === "idempotency_in_progress") return `retry in ${error.retryAfterSeconds satisfies number} s`;
  return error.detail;
}
