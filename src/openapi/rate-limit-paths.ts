// GET /v2/{environment}/me/rate-limits.
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { authProblems, environmentParams, internalError, keyRequired, rateLimited, unknownEnvironment } from "./common";
import { exampleUsage, rateLimitHeaders, requestIdHeader } from "./headers";
import { rateLimitInfoSchema } from "./schemas";

export function registerRateLimits(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/v2/{environment}/me/rate-limits",
    operationId: "getRateLimits",
    tags: ["Rate limits"],
    summary: "Your rate limits and usage, per endpoint type",
    description: "Counts itself as rate_limits (Tier 4).",
    security: keyRequired,
    request: { params: environmentParams },
    responses: {
      200: {
        description: "One entry per endpoint type.",
        headers: { "x-request-id": requestIdHeader, ...rateLimitHeaders("rate_limits", exampleUsage(100, 1, 60)) },
        content: { "application/json": { schema: z.array(rateLimitInfoSchema) } },
      },
      ...authProblems,
      404: unknownEnvironment,
      429: rateLimited("rate_limits", 100),
      500: internalError,
    },
  });
}
