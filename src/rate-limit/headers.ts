import type { EndpointType } from "./endpoint-types";
import type { WindowUsage } from "./sliding-window";

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers), structured-field syntax:
 * `RateLimit-Policy: "<policy>";q=<quota>;w=<window>` and `RateLimit: "<policy>";r=<remaining>;t=<reset>`.
 */
export function rateLimitHeaders(endpointType: EndpointType, usage: WindowUsage): Record<string, string> {
  return {
    "ratelimit-policy": `"${endpointType}";q=${usage.limit};w=${usage.windowSeconds}`,
    ratelimit: `"${endpointType}";r=${usage.remaining};t=${usage.resetSeconds}`,
  };
}
