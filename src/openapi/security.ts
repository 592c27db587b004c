// How the document asks for the key, and what /docs pre-fills: small enough for the
// Worker to import without the document itself.

export const API_KEY_SCHEME = "apiKey";
/** The README's local development key for `test` (scripts/dev-keys.ts): /docs samples run as pasted against `npm run dev`. */
export const EXAMPLE_API_KEY = "ck_test_localdevelopmentkey0000000000000";
export const EXAMPLE_ENVIRONMENT = "test";
