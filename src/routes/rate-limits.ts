import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { readConfig } from "../config";
import { methodNotAllowed } from "../http/method-not-allowed";
import { ENDPOINT_TYPES, endpointLimit } from "../rate-limit/endpoint-types";

export const rateLimits = new Hono<AppEnv>()
  .get("/", (c) => {
    const config = readConfig(c.env);
    const environment = c.get("environment");
    const overrides = c.get("apiKey").rateLimits;
    return c.json(ENDPOINT_TYPES.map((type) => endpointLimit(type, environment, config, overrides)));
  })
  .all("/", methodNotAllowed("GET"));
