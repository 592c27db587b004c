import type { Context } from "hono";
import { ApiError } from "./problem";

/** Handler for a known path called with a method it does not serve. */
export const methodNotAllowed =
  (...allowed: string[]) =>
  (c: Context): never => {
    throw new ApiError({
      status: 405,
      code: "method_not_allowed",
      title: "Method Not Allowed",
      detail: `${c.req.method} is not supported here; use ${allowed.join(" or ")}.`,
      headers: { allow: allowed.join(", ") },
    });
  };
