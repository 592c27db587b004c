import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { readConfig } from "../base/config";
import { readJsonBody } from "../http/body";

/**
 * Reads the JSON body into `jsonBody`, with the 415, 413 or 400 a client mistake
 * deserves. It runs before the Idempotency-Key is looked up, so a malformed retry
 * is told what is wrong, never replayed.
 */
export const jsonBody = () =>
  createMiddleware<AppEnv & { Variables: { jsonBody: unknown } }>(async function jsonBody(c, next) {
    c.set("jsonBody", await readJsonBody(c.req, readConfig(c.env).maxBodyBytes));
    await next();
  });
