// Where the OAuth parts live on the Worker's own origin. RESOURCE_PATH is the door's MCP_PATH
// (src/mcp/door.ts): the protected resource the tokens are bound to.
export const RESOURCE_PATH = "/mcp";
/** The same tools for clients configured with a header (Cursor): an API key only, no OAuth discovery. */
export const KEY_DOOR_PATH = "/mcp/key";

export const AUTHORIZE_PATH = "/oauth/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";

const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";
export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/** The canonical resource of an origin: what tokens are issued for (RFC 8707) and checked against. */
export const resourceOf = (origin: string): string => `${origin}${RESOURCE_PATH}`;

/** RFC 9728's URL of the resource's metadata: the well-known prefix, then the resource's path. */
export const resourceMetadataUrl = (origin: string): string =>
  `${origin}${PROTECTED_RESOURCE_METADATA_PATH}${RESOURCE_PATH}`;

/** Paths the OAuth side of the Worker answers (src/index.ts routes them to serveOAuth). */
export const isOAuthPath = (pathname: string): boolean =>
  pathname.startsWith("/oauth/") ||
  pathname === AUTHORIZATION_SERVER_METADATA_PATH ||
  pathname === PROTECTED_RESOURCE_METADATA_PATH ||
  pathname.startsWith(`${PROTECTED_RESOURCE_METADATA_PATH}/`);
