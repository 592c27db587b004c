import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { environmentMismatch } from "../http/errors";
import { authenticate } from "../operations/authenticate";

/** Resolves `x-api-key` to its record (authenticate) and checks it belongs to this environment. */
export const apiKeyAuth = () =>
  createMiddleware<AppEnv>(async function apiKeyAuth(c, next) {
    const record = await authenticate(c.env, c.req.header("x-api-key"));
    const environment = c.get("environment");
    if (record.environment !== environment) throw environmentMismatch(record.environment);
    c.set("apiKey", record);
    await next();
  });
