// Every route the API serves, and GET /v2/{environment}/me/rate-limits, which lists them: it lives
// here because it reads the list (each route's rateLimit middleware carries its operation's endpoint type).
import * as z from "zod";
import type { Environment } from "../base/environment";
import { batchEventRoutes } from "../batch/event-routes";
import { batchListRoutes } from "../batch/list-routes";
import { batchRoutes } from "../batch/read-routes";
import { contactInfoRoutes } from "../batch/routes";
import { budgetRoutes } from "../credits/budget-routes";
import { feedbackRoutes } from "../credits/feedback-routes";
import { integrationRoutes } from "../crm/connection-routes";
import { crmSyncRoutes } from "../crm/routes";
import { callerOf } from "../middleware/caller";
import { limitOf, rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, keyRequired, unknownEnvironment } from "../openapi/common";
import { requestIdHeaders } from "../openapi/headers";
import { rateLimitInfoSchema } from "../openapi/schemas";
import { rateLimitsOf } from "../operations/account";
import { privacyRoutes } from "../privacy/routes";
import { ENDPOINT_TYPES, type EndpointType, MCP_PROTOCOL_OPERATIONS } from "../rate-limit/endpoint-types";
import { connectionRoutes } from "./connections";
import { type DeclaredRoute, declareRoute } from "./declare";
import { metaRoutes } from "./meta";
import { usageRoutes } from "./usage";
import { webhookDeliveryRoutes } from "./webhook-deliveries";
import { webhookEndpointRoutes } from "./webhook-endpoints";

const getRateLimits = declareRoute({
  route: {
    method: "get",
    path: "/me/rate-limits",
    middleware: [rateLimit(rateLimitsOf, { parallel: true, withUsage: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getRateLimits",
    tags: ["Rate limits"],
    summary: "Your rate limits and usage, per endpoint type",
    description: "Each endpoint type: its limit and window, what is used and left of it, and the operations it counts.",
    security: keyRequired,
    request: { params: environmentParams() },
    responses: {
      200: {
        description: "One entry per endpoint type.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: z.array(rateLimitInfoSchema()) } },
      },
      ...authProblems(),
      404: unknownEnvironment(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(rateLimitsOf(caller, await c.get("rateLimit"), apiOperations(caller.environment)), 200);
  },
});

/**
 * Every route the API serves, by where it is mounted, as each resource file lists its own: the
 * Worker serves exactly these, and scripts/openapi.ts documents exactly these (in this order).
 */
export const API_ROUTES = {
  "/v2/:environment": [
    ...contactInfoRoutes,
    ...batchRoutes,
    ...batchListRoutes,
    ...batchEventRoutes,
    ...feedbackRoutes,
    getRateLimits,
    ...usageRoutes,
    ...connectionRoutes,
    ...budgetRoutes,
    ...privacyRoutes,
    ...integrationRoutes,
    ...crmSyncRoutes,
    ...webhookEndpointRoutes,
    ...webhookDeliveryRoutes,
  ],
  "/": metaRoutes,
} satisfies Record<string, readonly DeclaredRoute[]>;

/**
 * The operations ("METHOD /v2/{environment}/path") each endpoint type counts, in the routes' order; MCP's
 * protocol requests after them (an MCP tool call counts as its route).
 */
export function apiOperations(environment: Environment): Record<EndpointType, string[]> {
  const operations = Object.fromEntries(ENDPOINT_TYPES.map((type) => [type, [] as string[]])) as Record<
    EndpointType,
    string[]
  >;
  for (const { route } of API_ROUTES["/v2/:environment"]) {
    const type = limitOf(route.middleware);
    if (type) operations[type].push(`${route.method.toUpperCase()} /v2/${environment}${route.path}`);
  }
  operations.mcp_protocol.push(...MCP_PROTOCOL_OPERATIONS);
  return operations;
}
