// What needs no key: the index, the health check, the document and the reference page.
import * as z from "zod";
import { noKey } from "../openapi/common";
import { referencePage } from "../openapi/reference-page";
import { type DeclaredRoute, declareRoute } from "./declare";

/** What `GET /` answers: where a person who opened the bare URL goes next. */
const API_INDEX = {
  name: "Contact-info batch API",
  app: "/app",
  docs: "/docs",
  openapi: "/openapi.json",
  health: "/healthz",
} as const;

// A person who opens the bare URL in a browser: where to go, in words. No script, no style.
const INDEX_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${API_INDEX.name}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body><h1>${API_INDEX.name}</h1><ul>
<li><a href="${API_INDEX.app}">Enrich a spreadsheet</a> (the console: drop a CSV or XLSX file, get it back with emails and phones)</li>
<li><a href="${API_INDEX.docs}">API reference</a> (<a href="${API_INDEX.openapi}">OpenAPI document</a>)</li>
</ul></body></html>`;
const INDEX_PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

const index = declareRoute({
  route: {
    method: "get",
    path: "/",
  },
  docs: OPENAPI_METADATA && {
    operationId: "index",
    tags: ["Meta"],
    summary: "Where to start",
    description:
      "Points to the console (/app), the API reference (/docs), this document (/openapi.json) and the health check: as JSON, or as a page of links to a browser (Accept: text/html). Needs no key.",
    security: noKey,
    responses: {
      200: {
        description: "Links.",
        content: {
          "application/json": {
            schema: z
              .object({ name: z.string(), app: z.string(), docs: z.string(), openapi: z.string(), health: z.string() })
              .meta({ example: API_INDEX }),
          },
          "text/html": { schema: z.string() },
        },
      },
    },
  },
  handler: (c) => {
    c.header("Vary", "Accept");
    return (c.req.header("accept") ?? "").includes("text/html")
      ? (c.html(INDEX_PAGE, 200, INDEX_PAGE_HEADERS) as never)
      : c.json(API_INDEX, 200);
  },
});

const health = declareRoute({
  route: {
    method: "get",
    path: "/healthz",
  },
  docs: OPENAPI_METADATA && {
    operationId: "health",
    tags: ["Meta"],
    summary: "Liveness, for load balancers",
    description: "Needs no key and touches no storage.",
    security: noKey,
    responses: {
      200: { description: "Up.", content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } } },
    },
  },
  handler: (c) => c.json({ status: "ok" as const }, 200),
});

const openApiDocument = declareRoute({
  route: {
    method: "get",
    path: "/openapi.json",
  },
  docs: OPENAPI_METADATA && {
    operationId: "openApiDocument",
    tags: ["Meta"],
    summary: "This document",
    description:
      "The OpenAPI 3.1 description of this API, generated from the schemas that validate requests. Needs no key.",
    security: noKey,
    responses: {
      200: {
        description: "OpenAPI 3.1.",
        content: { "application/json": { schema: z.object({}).catchall(z.unknown()) } },
      },
    },
  },
  // A static asset built ahead of time (scripts/openapi.ts), which Cloudflare serves
  // before the Worker runs; this route answers only when the Worker is called directly.
  // The asset's answer is passed on as it is (no typed JSON to check).
  handler: (c) => c.env.ASSETS.fetch(c.req.raw) as never,
});

const apiReference = declareRoute({
  route: {
    method: "get",
    path: "/docs",
  },
  docs: OPENAPI_METADATA && {
    operationId: "apiReference",
    tags: ["Meta"],
    summary: "Interactive API reference",
    description: "A browsable reference built from /openapi.json. Needs no key.",
    security: noKey,
    responses: { 200: { description: "An HTML page.", content: { "text/html": { schema: z.string() } } } },
  },
  // Scalar's handler writes the page itself (no typed JSON to check).
  handler: referencePage() as never,
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const metaRoutes: readonly DeclaredRoute[] = [index, health, openApiDocument, apiReference];
