import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import type { Caller } from "../operations/caller";

/** The operation's caller, as the key's middleware left it on the request: what a REST door hands an operation. */
export const callerOf = <E extends AppEnv>(c: Context<E>): Caller => ({
  env: c.env,
  apiKey: c.get("apiKey"),
  environment: c.get("environment"),
  signal: c.req.raw.signal,
});
