// GET /docs: Scalar's API reference over /openapi.json, its script served from this
// origin (scripts/copy-assets.mjs) and nothing fetched from anyone else's host.
import { Scalar } from "@scalar/hono-api-reference";
import type { MiddlewareHandler } from "hono";
import { API_KEY_SCHEME, EXAMPLE_API_KEY } from "./security";

// The standalone script (1.46) reads `agent` per source; this package's types predate it.
const agentOff = { agent: { disabled: true } };

const scalar = () =>
  Scalar({
    url: "/openapi.json",
    cdn: "/docs/scalar.js",
    pageTitle: "Contact-info batch API",
    defaultOpenAllTags: true,
    // The key goes in once, as the security scheme, pre-filled with the local test key.
    authentication: {
      preferredSecurityScheme: API_KEY_SCHEME,
      securitySchemes: { [API_KEY_SCHEME]: { value: EXAMPLE_API_KEY } },
    },
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    // No third-party hosts: system fonts, no hosted client, no "Ask AI" agent (it loads
    // api.scalar.com through proxy.scalar.com), no telemetry, no developer toolbar.
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
    showDeveloperTools: "never",
    ...agentOff,
  });

/** A CSP source hash: SHA-256 of the script's text as UTF-8, in base64. */
async function scriptHash(script: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script)));
  return btoa(String.fromCharCode(...digest));
}

// The page's one inline script: Scalar's call that starts the reference with our configuration.
const INLINE_SCRIPT = /<script type="text\/javascript">([\s\S]*?)<\/script>/;

/**
 * The headers /app has (public/_headers), for what this page needs: its script from this
 * origin plus the inline start-up script by its hash (so no other inline script runs);
 * inline styles, which Scalar's theme and components write at run time (styles run no
 * code); images as data: URLs; requests (the page's "Send" and /openapi.json) to this origin only.
 */
function securityHeaders(scriptHash: string): Record<string, string> {
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'sha256-${scriptHash}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { "content-security-policy": policy, "referrer-policy": "no-referrer", "x-content-type-options": "nosniff" };
}

export const referencePage = (): MiddlewareHandler => {
  const page = scalar();
  return async function referencePage(c, next) {
    const response = (await page(c, next)) as Response;
    const html = await response.text();
    // The hash of the script as sent, so the policy cannot drift from Scalar's page.
    const script = INLINE_SCRIPT.exec(html)?.[1];
    if (script === undefined) throw new Error("the /docs page has no inline start-up script to allow");
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(securityHeaders(await scriptHash(script)))) headers.set(name, value);
    return new Response(html, { status: response.status, headers });
  };
};
