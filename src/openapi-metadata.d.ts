// Whether route declarations carry their OpenAPI metadata (src/routes/declare.ts):
// false in the Worker (wrangler.toml [define], which `wrangler dev` and the vitest
// workers pool apply too); true where the document is built, in Node
// (src/openapi/documenting.ts sets the global before the routes load).
declare var OPENAPI_METADATA: boolean;
