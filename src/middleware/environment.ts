import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { isEnvironment } from "../base/environment";
import { notFound } from "../http/errors";
import { cut } from "../http/field-errors";

/** `/v2/{environment}/…` exists only for `live` and `test`; anything else is 404. */
export const environmentParam = () =>
  createMiddleware<AppEnv>(async function environmentParam(c, next) {
    const environment = c.req.param("environment") ?? "";
    if (!isEnvironment(environment)) throw notFound(`Unknown environment '${cut(environment)}': use 'live' or 'test'.`);
    c.set("environment", environment);
    await next();
  });
