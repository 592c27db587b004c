import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";

/** Tags each request with an id (Cloudflare's Ray ID when present) for logs and problem bodies. */
export const requestId = () =>
  createMiddleware<AppEnv>(async function requestId(c, next) {
    const id = c.req.header("cf-ray") ?? crypto.randomUUID();
    c.set("requestId", id);
    await next();
    c.header("x-request-id", id);
  });
