// Who calls the MCP door, by the credential the request carries: an API key (x-api-key, or
// Authorization: Bearer ck_…) at /mcp and /mcp/key, or an OAuth access token at /mcp only.
import { readConfig } from "../../base/config";
import { type Tenant, tenantOf } from "../../base/tenant";
import { connectionsStub } from "../../connections/stub";
import { invalidToken, missingApiKey } from "../../http/errors";
import { ApiError } from "../../http/problem";
import { authenticate } from "../../operations/authenticate";
import { keyPrincipal, type McpPrincipal } from "../principal";
import { authorizationServerFor } from "./authorization-server";
import { grantPropsSchema } from "./grant-props";
import { keyRecordById } from "./key-by-id";
import { KEY_DOOR_PATH, resourceMetadataUrl, resourceOf } from "./paths";

// An API key is recognised by its prefix, so an OAuth token is never looked up as a key, nor a key
// sent to the authorization server.
const KEY_PREFIX = "ck_";

const bearerOf = (headers: Headers): string | undefined =>
  headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];

/** The challenge at /mcp: RFC 9728's pointer to the resource's metadata, where discovery starts. */
const challenge = (origin: string, error?: "invalid_token") =>
  `Bearer ${error ? `error="${error}", ` : ""}resource_metadata="${resourceMetadataUrl(origin)}"`;

/**
 * The request's caller, or an ApiError (401) to answer. /mcp/key takes a key only and names no OAuth
 * metadata; /mcp answers a request without a credential, or with a token it refuses, with a challenge
 * that starts OAuth discovery. A token is good while its connection stands (the tenant's connections
 * object, asked on every request, so ending it stops the token at once) and the key it was granted with
 * is not revoked (its record here, and the limiter the door asks next, which holds revocations at once).
 */
export async function mcpPrincipal(request: Request, env: Env): Promise<McpPrincipal> {
  const url = new URL(request.url);
  const keyOnly = url.pathname === KEY_DOOR_PATH;
  const headerKey = request.headers.get("x-api-key");
  const bearer = bearerOf(request.headers);
  if (headerKey !== null) return keyPrincipal(await authenticate(env, headerKey), readConfig(env));
  if (bearer !== undefined && (keyOnly || bearer.startsWith(KEY_PREFIX)))
    return keyPrincipal(await authenticate(env, bearer), readConfig(env));
  if (keyOnly) throw missingApiKey();
  if (bearer === undefined)
    throw new ApiError({ ...missingApiKey().init, headers: { "www-authenticate": challenge(url.origin) } });
  const refused = invalidToken(challenge(url.origin, "invalid_token"));
  const validated = await authorizationServerFor(url.origin).validateToken(resourceOf(url.origin), bearer, env);
  const props = grantPropsSchema.safeParse(validated?.props);
  if (!props.success) throw refused;
  const { connectionId, ...owner } = props.data;
  const tenant: Tenant = tenantOf(owner);
  const connection = await connectionsStub(env, tenant).use(connectionId, new Date().toISOString());
  if (!connection) throw refused;
  const apiKey = await keyRecordById(env, connection.keyId, readConfig(env).apiKeyCacheTtlSeconds);
  if (!apiKey || apiKey.revokedAt) throw refused;
  return { apiKey, scopes: new Set(connection.scopes), allowanceCredits: connection.allowanceCredits, connectionId };
}
