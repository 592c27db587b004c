import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import type { AppEnv } from "./app-env";
import { log, logError } from "./base/log";
import { IncompleteBodyError } from "./http/body";
import { clientError, internalError, methodNotAllowed as notAllowed, notFound } from "./http/errors";
import { ApiError, problemResponse } from "./http/problem";
import { apiKeyAuth } from "./middleware/api-key-auth";
import { environmentParam } from "./middleware/environment";
import { API_ROUTES } from "./routes/api-routes";
import { serveRoutes } from "./routes/declare";

// GET implies HEAD, so Allow leaves HEAD out.
const METHOD_ORDER = ["GET", "POST", "PUT", "PATCH", "DELETE"];

const v2 = new Hono<AppEnv>();
v2.use(
  environmentParam(),
  apiKeyAuth(),
  // A known /v2 path called with another method: 405 with Allow.
  methodNotAllowed({
    app: v2,
    onMethodNotAllowed: (c, methods) => {
      // In a fixed order, whatever order the routes were declared in.
      const allowed = METHOD_ORDER.filter((method) => methods.includes(method));
      throw notAllowed(c.req.method, allowed);
    },
  }),
);
serveRoutes(v2, API_ROUTES["/v2/:environment"]);

export const app = serveRoutes(
  new Hono<AppEnv>().use(
    requestId({
      headerName: "x-request-id",
      // Never adopt a client's x-request-id (no length passes): the id is Cloudflare's
      // Ray ID, so our logs join Cloudflare's, and a client cannot choose ids in them.
      limitLength: 0,
      generator: (c) => c.req.header("cf-ray") ?? crypto.randomUUID(),
    }),
  ),
  API_ROUTES["/"],
)
  .route("/v2/:environment", v2)
  // Answered, not thrown, so that methodNotAllowed can turn a 404 into a 405.
  .notFound((c) => problemResponse(notFound().init, c.get("requestId")))
  .onError((error, c) => {
    const id = c.get("requestId") ?? "unknown";
    if (error instanceof IncompleteBodyError)
      log("request_body_incomplete", { requestId: id, method: c.req.method, path: c.req.routePath });
    if (error instanceof ApiError) return problemResponse(error.init, id);
    if (error instanceof HTTPException && error.status < 500) {
      return problemResponse(clientError(error.status, error.message).init, id);
    }
    logError("unhandled_error", error, { requestId: id, method: c.req.method, path: c.req.routePath });
    return problemResponse(internalError().init, id);
  });
