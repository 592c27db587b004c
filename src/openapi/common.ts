// What every /v2 operation shares: the key (as the security scheme, never as a
// parameter), the environment in the path, and the problems any of them may answer.
// Documentation only: what is made here is made under OPENAPI_METADATA (src/base/once.ts, notInTheWorker).
import type { ResponseConfig } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { ENVIRONMENTS } from "../base/environment";
import { notInTheWorker, once } from "../base/once";
import type { EndpointType } from "../rate-limit/endpoint-types";
import { rateLimited as rateLimitedError } from "../rate-limit/rate-limited";
import { exampleUsage, header, rateLimitHeaders, retryAfterHeader } from "./headers";
import { problem } from "./problems";
import { API_KEY_SCHEME, EXAMPLE_ENVIRONMENT } from "./security";

export const keyRequired = [{ [API_KEY_SCHEME]: [] }];
/** For routes anyone may call: no key. */
export const noKey = [];

// The example is the parameter's own (param.example), which samples use before the enum's first value.
export const environmentParams = OPENAPI_METADATA
  ? once(() =>
      z.object({
        environment: z.enum(ENVIRONMENTS).meta({
          description:
            "`test` is the deterministic sandbox; `live` uses real data sources. Use the key of the same environment.",
          param: { example: EXAMPLE_ENVIRONMENT },
          example: EXAMPLE_ENVIRONMENT,
        }),
      }),
    )
  : notInTheWorker;

export const authProblems = OPENAPI_METADATA
  ? once(() => ({
      401: problem(["missing_api_key", "invalid_api_key"], "Missing, unknown or revoked API key", {
        headers: { "WWW-Authenticate": header("How to authenticate.", 'ApiKey header="x-api-key"', true) },
      }),
      403: problem(["environment_mismatch"], "The key belongs to the other environment"),
    }))
  : notInTheWorker;

export const unknownEnvironment = OPENAPI_METADATA
  ? once(() => problem(["not_found"], "Unknown environment"))
  : notInTheWorker;

export const internalError = OPENAPI_METADATA
  ? once(() => problem(["internal_error"], "Something failed on our side; retry later"))
  : notInTheWorker;

export const rateLimited = (endpointType: EndpointType, limit: number): ResponseConfig => {
  const usage = exampleUsage(limit, limit, 12);
  return problem(["rate_limited"], "Over the rate limit for this endpoint type; nothing was done", {
    example: rateLimitedError(endpointType, usage),
    headers: {
      "Retry-After": retryAfterHeader(
        "Seconds to wait; the same as retryAfterSeconds and the t of RateLimit.",
        usage.resetSeconds,
      ),
      ...rateLimitHeaders(endpointType, usage),
    },
  });
};

/** The events route's 429s: over the status budget (opening, or holding a unit while open), or over a cap on open streams. */
export const streamRefused = (limit: number): ResponseConfig => {
  const usage = exampleUsage(limit, limit, 12);
  return problem(
    ["rate_limited", "too_many_streams"],
    "Over the rate limit, or as many event streams open as allowed; nothing was opened",
    {
      example: rateLimitedError("contact_info_status", usage),
      headers: {
        "Retry-After": retryAfterHeader("Seconds to wait; the same as retryAfterSeconds.", usage.resetSeconds),
        ...rateLimitHeaders("contact_info_status", usage),
      },
    },
  );
};

/** What the jsonBody middleware answers before a route reads its body: too large, not JSON. */
export const jsonBodyProblems = OPENAPI_METADATA
  ? once(() => ({
      413: problem(["payload_too_large"], "A body over the size limit"),
      415: problem(["unsupported_media_type"], "The body is not application/json", {
        headers: { "Accept-Post": header("The media type to send.", "application/json", true) },
      }),
    }))
  : notInTheWorker;
