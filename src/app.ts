import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import type { AppEnv } from "./app-env";
import { IncompleteBodyError } from "./http/body";
import { clientError, internalError, methodNotAllowed as notAllowed, notFound } from "./http/errors";
import { ApiError, problemResponse } from "./http/problem";
import { log, logError } from "./log";
import { apiKeyAuth } from "./middleware/api-key-auth";
import { environmentParam } from "./middleware/environment";
import { referencePage } from "./openapi/reference-page";
import { API_INDEX } from "./routes/api-index";
import { batchEvents } from "./routes/batch-events";
import { contactInfo } from "./routes/contact-info";
import { privacy } from "./routes/privacy";
import { rateLimits } from "./routes/rate-limits";
import { usage } from "./routes/usage";

const v2 = new Hono<AppEnv>();
v2.use(
  environmentParam(),
  apiKeyAuth(),
  // A known /v2 path called with another method: 405 with Allow (GET implies HEAD, so Allow leaves it out).
  methodNotAllowed({
    app: v2,
    onMethodNotAllowed: (c, methods) => {
      throw notAllowed(
        c.req.method,
        methods.filter((method) => method !== "HEAD"),
      );
    },
  }),
)
  .route("/person/contact-info", contactInfo)
  .route("/person/contact-info", batchEvents)
  .route("/me/rate-limits", rateLimits)
  .route("/me/usage", usage)
  .route("/privacy", privacy);

export const app = new Hono<AppEnv>()
  .use(
    requestId({
      headerName: "x-request-id",
      // Never adopt a client's x-request-id (no length passes): the id is Cloudflare's
      // Ray ID, so our logs join Cloudflare's, and a client cannot choose ids in them.
      limitLength: 0,
      generator: (c) => c.req.header("cf-ray") ?? crypto.randomUUID(),
    }),
  )
  .get("/", (c) => c.json(API_INDEX))
  .get("/healthz", (c) => c.json({ status: "ok" }))
  // A static asset built ahead of time (scripts/openapi.ts), which Cloudflare serves
  // before the Worker runs; this route answers only when the Worker is called directly.
  .get("/openapi.json", (c) => c.env.ASSETS.fetch(c.req.raw))
  .get("/docs", referencePage())
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
