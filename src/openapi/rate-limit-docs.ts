import type { RouteConfig } from "@hono/zod-openapi";
import { type EndpointType, tierOf } from "../rate-limit/endpoint-types";
import { rateLimited } from "./common";
import { exampleUsage, rateLimitHeaders } from "./headers";

// What a rate-limited route's entry says of its limit, derived from the one statement of it (the endpoint
// type of the operation its rateLimit middleware was given, src/rate-limit/operation.ts) when the document is built: the sentence,
// the RateLimit fields of its answers and its 429.

// wrangler.toml's TIER_3_LIMIT, TIER_4_LIMIT and MCP_PROTOCOL_LIMIT, as the document's examples show them.
const EXAMPLE_LIMIT = { "Tier 3": 50, "Tier 4": 100, MCP: 300 } as const;

type Docs = Omit<RouteConfig, "method" | "path" | "middleware">;

export function withRateLimitDocs(docs: Docs, endpointType: EndpointType): Docs {
  const tier = tierOf(endpointType);
  const limit = EXAMPLE_LIMIT[tier];
  const fields = rateLimitHeaders(endpointType, exampleUsage(limit, 1, 60));
  const responses = Object.fromEntries(
    Object.entries(docs.responses).map(([status, response]) =>
      // Every answer of the route's own (2xx) carries the fields; a route's own 429 (a special refusal) stays.
      status.startsWith("2") && !("$ref" in response)
        ? [status, { ...response, headers: { ...response.headers, ...fields } }]
        : [status, response],
    ),
  );
  const sentence = `Rate limited as ${endpointType} (${tier}).`;
  return {
    ...docs,
    description: docs.description ? `${docs.description} ${sentence}` : sentence,
    responses: { ...responses, 429: docs.responses[429] ?? rateLimited(endpointType, limit) },
  };
}
