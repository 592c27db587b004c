import { Hono } from "hono";
import { accountStub } from "../account/stub";
import { parseUsageQuery } from "../account/usage-query";
import type { AppEnv } from "../app-env";
import { rateLimit } from "../middleware/rate-limit";
import { tenantOf } from "../tenant";

/** Items finished per UTC day for the customer in this environment, with their data sources. */
export const usage = new Hono<AppEnv>().get("/", rateLimit("rate_limits", { parallel: true }), async (c) => {
  const range = parseUsageQuery(c.req.query(), Date.now());
  const apiKey = c.get("apiKey");
  return c.json(await accountStub(c.env, tenantOf(apiKey)).usage(range));
});
