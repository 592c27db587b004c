import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { readConfig } from "../config";
import { invalidApiKey } from "../http/errors";
import { problemResponse } from "../http/problem";
import { type EndpointType, effectiveSettings } from "../rate-limit/endpoint-types";
import { rateLimitHeaders } from "../rate-limit/headers";
import { rateLimited } from "../rate-limit/rate-limited";
import type { ConsumeResult } from "../rate-limit/rate-limiter";
import { limiterStub } from "../rate-limit/stub";

/**
 * Counts the request against its customer's limit for `endpointType` in this
 * environment (one Durable Object call, shared by all the customer's keys) and
 * adds the RateLimit fields to whatever the route answers. The limits in force
 * are those on the calling key's record. The same call refuses a revoked key
 * (401, as an unknown one), whatever copy of its record auth still had cached.
 *
 * `parallel` is for reads: the count runs alongside the handler, and a request
 * over the limit has its (side-effect-free) answer replaced by the 429. Writes
 * check first, so a rejected request does no work. `withUsage` also reads every
 * endpoint type's usage (for GET /me/rate-limits); other routes need only the decision.
 */
export const rateLimit = (endpointType: EndpointType, { parallel = false, withUsage = false } = {}) =>
  createMiddleware<AppEnv>(async function rateLimit(c, next) {
    const apiKey = c.get("apiKey");
    // A revoked key (the limiter holds the customer's revocations) is refused like an unknown one.
    const result: Promise<ConsumeResult> = limiterStub(c.env, apiKey)
      .admit(apiKey.keyId, endpointType, effectiveSettings(readConfig(c.env), apiKey.rateLimits), { withUsage })
      .then((answer) => {
        if (answer.revoked) throw invalidApiKey();
        return answer;
      });
    c.set("rateLimit", result);
    if (!parallel) {
      const outcome = await result;
      if (!outcome.decision.allowed) throw rateLimited(endpointType, outcome.decision);
      await next();
      setHeaders(c.res.headers, rateLimitHeaders(endpointType, outcome.decision));
      return;
    }
    // Keep a rejected count from surfacing as an unhandled rejection while the handler runs.
    result.catch(() => {});
    await next();
    const outcome = await result;
    if (!outcome.decision.allowed) {
      c.res = problemResponse(rateLimited(endpointType, outcome.decision).init, c.get("requestId"));
      return;
    }
    setHeaders(c.res.headers, rateLimitHeaders(endpointType, outcome.decision));
  });

function setHeaders(target: Headers, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) target.set(name, value);
}
