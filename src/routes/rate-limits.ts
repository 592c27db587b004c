// The caller's rate limits and usage: GET /v2/{environment}/me/rate-limits.
import * as z from "zod";
import { rateLimit } from "../middleware/rate-limit";
import {
  authProblems,
  environmentParams,
  internalError,
  keyRequired,
  rateLimited,
  unknownEnvironment,
} from "../openapi/common";
import { exampleUsage, rateLimitHeaders, requestIdHeader } from "../openapi/headers";
import { rateLimitInfoSchema } from "../openapi/schemas";
import { rateLimitsOf } from "../operations/account";
import { declareRoute } from "./declare";

export const getRateLimits = declareRoute({
  route: {
    method: "get",
    path: "/me/rate-limits",
    middleware: [rateLimit("rate_limits", { parallel: true, withUsage: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getRateLimits",
    tags: ["Rate limits"],
    summary: "Your rate limits and usage, per endpoint type",
    description: "Counts itself as rate_limits (Tier 4).",
    security: keyRequired,
    request: { params: environmentParams() },
    responses: {
      200: {
        description: "One entry per endpoint type.",
        headers: { "x-request-id": requestIdHeader, ...rateLimitHeaders("rate_limits", exampleUsage(100, 1, 60)) },
        content: { "application/json": { schema: z.array(rateLimitInfoSchema()) } },
      },
      ...authProblems(),
      404: unknownEnvironment,
      429: rateLimited("rate_limits", 100),
      500: internalError,
    },
  },
  handler: async (c) => {
    const caller = { env: c.env, apiKey: c.get("apiKey"), environment: c.get("environment") };
    return c.json(rateLimitsOf(caller, await c.get("rateLimit")), 200);
  },
});
