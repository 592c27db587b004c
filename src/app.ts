import { Scalar } from "@scalar/hono-api-reference";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./app-env";
import { IncompleteBodyError } from "./http/body";
import { clientError, internalError, notFound } from "./http/errors";
import { ApiError, problemResponse } from "./http/problem";
import { log, logError } from "./log";
import { API_INDEX, openApiDocument } from "./openapi/document";
import { apiKeyAuth } from "./middleware/api-key-auth";
import { environmentParam } from "./middleware/environment";
import { requestId } from "./middleware/request-id";
import { contactInfo } from "./routes/contact-info";
import { rateLimits } from "./routes/rate-limits";

// Built on first use, then kept for the isolate's life.
let document: ReturnType<typeof openApiDocument> | undefined;

const v2 = new Hono<AppEnv>()
  .use(environmentParam(), apiKeyAuth())
  .route("/person/contact-info", contactInfo)
  .route("/me/rate-limits", rateLimits);

export const app = new Hono<AppEnv>()
  .use(requestId())
  .get("/", (c) => c.json(API_INDEX))
  .get("/healthz", (c) => c.json({ status: "ok" }))
  .get("/openapi.json", (c) => c.json((document ??= openApiDocument())))
  .get(
    "/docs",
    Scalar({
      url: "/openapi.json",
      cdn: "/docs/scalar.js",
      pageTitle: "Contact-info batch API",
      defaultOpenAllTags: true,
      authentication: { preferredSecurityScheme: "apiKey" },
    }),
  )
  .route("/v2/:environment", v2)
  .notFound(() => {
    throw notFound();
  })
  .onError((error, c) => {
    const id = c.get("requestId") ?? "unknown";
    if (error instanceof IncompleteBodyError) log("request_body_incomplete", { requestId: id, method: c.req.method, path: c.req.routePath });
    if (error instanceof ApiError) return problemResponse(error.init, id);
    if (error instanceof HTTPException && error.status < 500) {
      return problemResponse(clientError(error.status, error.message).init, id);
    }
    logError("unhandled_error", error, { requestId: id, method: c.req.method, path: c.req.routePath });
    return problemResponse(internalError().init, id);
  });
