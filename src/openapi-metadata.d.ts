// Whether route declarations carry their OpenAPI metadata (src/routes/declare.ts):
// false in the Worker (wrangler.toml [define], vitest.config.ts), true where the
// document is built (src/openapi/documenting.ts sets it before the routes load).
declare var OPENAPI_METADATA: boolean;
