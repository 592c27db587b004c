import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { problemResponse } from "../http/problem";
import { admit } from "../operations/admit";
import type { EndpointType } from "../rate-limit/endpoint-types";
import { rateLimitHeaders } from "../rate-limit/headers";
import type { Operation } from "../rate-limit/operation";
import { rateLimited } from "../rate-limit/rate-limited";
import { callerOf } from "./caller";
import { idempotencyRequest } from "./idempotency";

/**
 * Counts the request against its customer's limit for the endpoint type its operation declares
 * (`counted`, the operation the handler calls: admit, the same count its MCP tool's call makes) and adds the RateLimit fields to whatever the
 * route answers. The same call refuses a revoked key (401, as an unknown one).
 *
 * `parallel` is for reads: the count runs alongside the handler, and a request
 * over the limit has its (side-effect-free) answer replaced by the 429. Writes
 * check first, so a rejected request does no work. `withUsage` also reads every
 * endpoint type's usage (for GET /me/rate-limits); other routes need only the decision.
 * `idempotency` (a write's): a request's Idempotency-Key is begun by the same call, and
 * the `idempotency()` middleware after this one acts on it.
 */
export const rateLimit = (operation: Operation, { parallel = false, withUsage = false, idempotency = false } = {}) => {
  const { endpointType } = operation;
  return limiting(
    operation,
    createMiddleware<AppEnv>(async function rateLimit(c, next) {
      const caller = callerOf(c);
      const keyed = idempotency && !parallel ? await idempotencyRequest(c) : undefined;
      const result = admit(caller, endpointType, keyed ? { withUsage, idempotency: keyed } : { withUsage });
      c.set("rateLimit", result);
      if (!parallel) {
        const outcome = await result;
        if (!outcome.decision.allowed) throw rateLimited(endpointType, outcome.decision);
        if (keyed && outcome.begun) c.set("idempotencyKey", { ...keyed, begun: outcome.begun });
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
    }),
  );
};

/** A route's rate limit, as its middleware says it: the operation the route calls, and its endpoint type. */
export type LimitingMiddleware = ReturnType<typeof createMiddleware<AppEnv>> & {
  readonly endpointType: EndpointType;
  readonly operation: Operation;
};

const limiting = (operation: Operation, middleware: ReturnType<typeof createMiddleware<AppEnv>>): LimitingMiddleware =>
  Object.assign(middleware, { endpointType: operation.endpointType, operation });

/** The endpoint type a route's middleware counts it as, if any (for the document, /me/rate-limits and MCP tools). */
export function limitOf(middleware: unknown): EndpointType | undefined {
  for (const handler of [middleware].flat()) {
    if (typeof handler === "function" && "endpointType" in handler) return (handler as LimitingMiddleware).endpointType;
  }
  return undefined;
}

function setHeaders(target: Headers, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) target.set(name, value);
}
