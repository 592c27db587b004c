// Imported first by document.ts: the routes it loads then carry their OpenAPI metadata
// (src/routes/declare.ts). Under tsx and Node nothing defines OPENAPI_METADATA at build
// time, so it is a global, set here before any route module runs.
globalThis.OPENAPI_METADATA = true;
