import { problemInit } from "../http/errors";
import { ApiError } from "../http/problem";
import type { EndpointType } from "./endpoint-types";
import { rateLimitHeaders } from "./headers";
import type { WindowUsage } from "./sliding-window";

/** The 429 for a request past its endpoint type's window, with Retry-After and the RateLimit fields. */
export const rateLimited = (endpointType: EndpointType, usage: WindowUsage): ApiError =>
  new ApiError(
    problemInit(
      "rate_limited",
      `Rate limit of ${usage.limit} requests per ${usage.windowSeconds} s for ${endpointType} exceeded; retry in ${usage.resetSeconds} s.`,
      {
        headers: { "retry-after": String(usage.resetSeconds), ...rateLimitHeaders(endpointType, usage) },
        extensions: {
          endpointType,
          limit: usage.limit,
          windowSeconds: usage.windowSeconds,
          retryAfterSeconds: usage.resetSeconds,
        },
      },
    ),
  );
