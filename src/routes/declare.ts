// Each route is declared once, in @hono/zod-openapi's shape: its method, path and
// middleware (what the Worker serves it by) and its OpenAPI metadata (the rest of
// createRoute's config) beside its handler. The Worker serves the declarations with
// plain Hono; scripts/openapi.ts hands the same objects, route and docs merged, to an
// OpenAPIHono to build the document. Only types come from the library here: its
// runtime (the generator, and zod whole) would more than double the bundle.
//
// The metadata is written `docs: OPENAPI_METADATA && {…}`: the Worker build defines
// OPENAPI_METADATA as false (wrangler.toml [define]), so esbuild drops every route's
// docs, and the helpers in src/openapi/ they alone used, from the bundle every cold
// start loads; the document builder sets it true (src/openapi/documenting.ts).
import type { OpenAPIRoute, RouteConfig } from "@hono/zod-openapi";
import type { Handler, Hono, MiddlewareHandler } from "hono";
import type { H } from "hono/types";
import type { AppEnv } from "../app-env";
import { knownParameters, type QueryParameters } from "../http/query";

/**
 * What the Worker serves a route by. A GET route's `query` is the schema its handler parses the query
 * with: every other parameter is refused before the route's middleware runs (one rule for all GET
 * routes, issue 46); a GET route without it takes none.
 */
type Served = Pick<RouteConfig, "method" | "path" | "middleware"> & { query?: QueryParameters };
/** What only the document reads: the rest of createRoute's config. */
type Docs = Omit<RouteConfig, "method" | "path" | "middleware">;

/** A route and its handler, as a list of routes holds it: checked by declareRoute, then of any config. */
export interface DeclaredRoute {
  route: Served;
  /** false where OPENAPI_METADATA is (the Worker). */
  docs: Docs | false;
  handler: Handler<AppEnv>;
}

/**
 * A route with its handler, typed from its route and docs together: the handler sees its middleware's
 * variables (M keeps the list a tuple) and its path's params (P keeps the path literal).
 * Its answers are not held to the documented bodies (the problem responses admit any
 * Response); openapi/schemas.ts and the conformance test tie those.
 */
export const declareRoute = <
  const M extends H[],
  P extends string,
  S extends Served & { path: P; middleware?: M },
  D extends Docs,
>(declared: {
  route: S;
  docs: D | false;
  handler: OpenAPIRoute<S & D, AppEnv>["handler"];
}): DeclaredRoute => declared as DeclaredRoute;

/** `{id}` as Hono writes it, `:id` (as OpenAPIHono converts it). */
const honoPath = (path: string) => path.replaceAll(/\/{(.+?)}/g, "/:$1");

/** A GET route's first step: its query names only parameters the route takes. */
function onlyKnownParameters(query: QueryParameters | undefined): MiddlewareHandler<AppEnv> {
  const check = knownParameters(query);
  return async function knownQueryParameters(c, next) {
    check(c.req.query());
    await next();
  };
}

/** Serves each declared route on `router`: for a GET, the query rule; its middleware, in order; then its handler. */
export function serveRoutes(router: Hono<AppEnv>, routes: readonly DeclaredRoute[]): Hono<AppEnv> {
  for (const { route, handler } of routes) {
    const middleware = route.middleware === undefined ? [] : [route.middleware].flat();
    const first = route.method === "get" ? [onlyKnownParameters(route.query)] : [];
    router.on(
      route.method.toUpperCase(),
      [honoPath(route.path)],
      ...first,
      ...(middleware as Handler<AppEnv>[]),
      handler,
    );
  }
  return router;
}
