// The caller's account: the operations behind GET …/me/usage, …/me/rate-limits and their MCP tools.

import { scorecardOf } from "../account/scorecard";
import { accountStub } from "../account/stub";
import { parseUsageQuery, scorecardRange } from "../account/usage-query";
import type { SourceScorecards } from "../account/views";
import { readConfig } from "../base/config";
import { tenantOf } from "../base/tenant";
import { ENDPOINT_TYPES, type EndpointType, endpointLimit } from "../rate-limit/endpoint-types";
import { operation } from "../rate-limit/operation";
import type { ConsumeResult } from "../rate-limit/rate-limiter";
import type { Caller } from "./caller";

/** Items finished per UTC day; `query` as a URL's query (from, to). */
export const readUsage = operation(
  "rate_limits",
  function readUsage({ env, apiKey }: Caller, query: Record<string, string>, now: number) {
    const range = parseUsageQuery(query, now);
    return accountStub(env, tenantOf(apiKey)).usage(range);
  },
);

/** Per data source, the customer's scorecard over the last 30 UTC days, today included. */
export const readSourceScorecards = operation(
  "rate_limits",
  async function readSourceScorecards({ env, apiKey }: Caller, now: number): Promise<SourceScorecards> {
    const range = scorecardRange(now);
    const counts = await accountStub(env, tenantOf(apiKey)).sourceCounts(range);
    return { ...range, sources: counts.map(scorecardOf) };
  },
);

/**
 * Each endpoint type's limit and usage. Usage is the customer's in this environment (all its
 * keys), as counted by the call's own admit (withUsage), so its own entry includes it; limits
 * are those on the calling key's record; `operations` are the routes each type counts (the door's list).
 */
export const rateLimitsOf = operation(
  "rate_limits",
  function rateLimitsOf({ env, apiKey }: Caller, { usage }: ConsumeResult, operations: Record<EndpointType, string[]>) {
    if (!usage) throw new Error("the rate limiter answered without the usage it was asked for");
    const config = readConfig(env);
    return ENDPOINT_TYPES.map((type) => {
      const { used, remaining, resetSeconds } = usage[type];
      return { ...endpointLimit(type, operations[type], config, apiKey.rateLimits), remaining, resetSeconds, used };
    });
  },
);
