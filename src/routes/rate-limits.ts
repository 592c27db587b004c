import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { readConfig } from "../config";
import { rateLimit } from "../middleware/rate-limit";
import { ENDPOINT_TYPES, endpointLimit } from "../rate-limit/endpoint-types";

export const rateLimits = new Hono<AppEnv>().get("/", rateLimit("rate_limits", { parallel: true, withUsage: true }), async (c) => {
  const config = readConfig(c.env);
  const environment = c.get("environment");
  const overrides = c.get("apiKey").rateLimits;
  // Usage is the customer's in this environment (all its keys); limits are those on
  // the calling key's record. This request is counted too, so its own entry includes it.
  const { usage } = await c.get("rateLimit");
  if (!usage) throw new Error("the rate limiter answered without the usage it was asked for");
  return c.json(
    ENDPOINT_TYPES.map((type) => {
      const { used, remaining, resetSeconds } = usage[type];
      return { ...endpointLimit(type, environment, config, overrides), remaining, resetSeconds, used };
    }),
  );
});
