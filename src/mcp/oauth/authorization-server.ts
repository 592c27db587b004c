import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { log } from "../../base/log";
import { MCP_SCOPES } from "../../connections/connection";
import { AUTHORIZE_PATH, REGISTER_PATH, resourceOf, TOKEN_PATH } from "./paths";

// An assistant's token lives an hour; its refresh token a month, renewed while the assistant uses it.
const ACCESS_TOKEN_TTL_SECONDS = 3600;
const REFRESH_TOKEN_IDLE_TTL_SECONDS = 30 * 24 * 3600;

// One server per origin the Worker is reached at (its workers.dev name, a custom domain, wrangler dev's
// loopback address): the issuer and the resource are that origin's, so a token issued on one origin is
// refused on another. An isolate sees a handful of origins at most.
const servers = new Map<string, OAuthAuthorizationServer<Env>>();

/**
 * The OAuth 2.1 authorization server of `origin` (@cloudflare/workers-oauth-provider): metadata
 * (RFC 8414), the token and revocation endpoint, dynamic registration (RFC 7591), Client ID Metadata
 * Documents, PKCE S256, `iss` on redirects (RFC 9207) and tokens bound to `<origin>/mcp` (RFC 8707).
 * Its grants live in OAUTH_KV. The authorize step is ours (authorize.ts).
 */
export function authorizationServerFor(origin: string): OAuthAuthorizationServer<Env> {
  let server = servers.get(origin);
  if (!server) {
    server = new OAuthAuthorizationServer<Env>({
      issuer: origin,
      resources: [resourceOf(origin)],
      defaultResource: resourceOf(origin),
      authorizeEndpoint: AUTHORIZE_PATH,
      tokenEndpoint: TOKEN_PATH,
      clientRegistrationEndpoint: REGISTER_PATH,
      scopesSupported: [...MCP_SCOPES],
      clientIdMetadataDocumentEnabled: true,
      accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenIdleTTL: REFRESH_TOKEN_IDLE_TTL_SECONDS,
      // The library's own answer stands (RFC 6749/7591 JSON errors); only its reason is logged, never the request.
      onError: ({ code, status, internal }) => {
        log("oauth_error", { code, status, reason: internal.reason });
      },
    });
    servers.set(origin, server);
  }
  return server;
}
