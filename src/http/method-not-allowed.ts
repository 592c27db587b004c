import type { Context } from "hono";
import { methodNotAllowed as notAllowed } from "./errors";

/** Handler for a known path called with a method it does not serve. */
export const methodNotAllowed =
  (...allowed: string[]) =>
  (c: Context): never => {
    throw notAllowed(c.req.method, allowed);
  };
