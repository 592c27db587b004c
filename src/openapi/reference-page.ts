// GET /docs: Scalar's API reference over /openapi.json, its script served from this
// origin (scripts/copy-assets.mjs) and nothing fetched from anyone else's host.
import { Scalar } from "@scalar/hono-api-reference";
import { API_KEY_SCHEME, EXAMPLE_API_KEY } from "./security";

// The standalone script (1.46) reads `agent` per source; this package's types predate it.
const agentOff = { agent: { disabled: true } };

export const referencePage = () =>
  Scalar({
    url: "/openapi.json",
    cdn: "/docs/scalar.js",
    pageTitle: "Contact-info batch API",
    defaultOpenAllTags: true,
    // The key goes in once, as the security scheme, pre-filled with the local test key.
    authentication: { preferredSecurityScheme: API_KEY_SCHEME, securitySchemes: { [API_KEY_SCHEME]: { value: EXAMPLE_API_KEY } } },
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    // No third-party hosts: system fonts, no hosted client, no "Ask AI" agent (it loads
    // api.scalar.com through proxy.scalar.com), no telemetry, no developer toolbar.
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
    showDeveloperTools: "never",
    ...agentOff,
  });
