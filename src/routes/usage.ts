// Items finished per UTC day for the customer in this environment: GET /v2/{environment}/me/usage.
import { MAX_USAGE_DAYS, usageQuerySchema } from "../account/usage-query";
import { sourceScorecardsSchema, usageReportSchema } from "../account/views";
import { callerOf } from "../middleware/caller";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, keyRequired, unknownEnvironment } from "../openapi/common";
import { requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { readSourceScorecards, readUsage } from "../operations/account";
import { type DeclaredRoute, declareRoute } from "./declare";

const getUsage = declareRoute({
  route: {
    method: "get",
    path: "/me/usage",
    query: usageQuerySchema,
    middleware: [rateLimit(readUsage, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getUsage",
    tags: ["Usage"],
    summary: "Items you had processed, per UTC day",
    description: `Each item counted once, on the UTC day it finished (completed or failed; items failed at submission on the submission day), for your customer account in this environment, with the calls per data source. Deleting a batch does not remove its counted usage. At most ${MAX_USAGE_DAYS} days.`,
    security: keyRequired,
    request: { params: environmentParams(), query: usageQuerySchema },
    responses: {
      200: {
        description: "Usage per day and in total.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: usageReportSchema() } },
      },
      400: problem(
        ["invalid_query"],
        `A date is not YYYY-MM-DD, from is after to, the range exceeds ${MAX_USAGE_DAYS} days, or a parameter is unknown`,
      ),
      ...authProblems(),
      404: unknownEnvironment(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await readUsage(caller, c.req.query(), Date.now()), 200);
  },
});

const getSourceScorecards = declareRoute({
  route: {
    method: "get",
    path: "/me/sources",
    middleware: [rateLimit(readSourceScorecards, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getSourceScorecards",
    tags: ["Usage"],
    summary: "How each data source served you over the last 30 days",
    description:
      "Per data source, for your customer account in this environment, over the last 30 UTC days (today included): items asked, hits and hit rate, hits with an email a verifier judged valid, contacts you reported wrong and the credits refunded for them, the median answer time and the rate-limit answers. Counted from each item's last attempt, once, when it finishes (as usage is); results from your cache count no call.",
    security: keyRequired,
    request: { params: environmentParams() },
    responses: {
      200: {
        description: "One scorecard per source asked in the last 30 days.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: sourceScorecardsSchema() } },
      },
      ...authProblems(),
      404: unknownEnvironment(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await readSourceScorecards(caller, Date.now()), 200);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const usageRoutes: readonly DeclaredRoute[] = [getUsage, getSourceScorecards];
