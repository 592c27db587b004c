// /mcp: the MCP server's door (Streamable HTTP). Authenticates every request with the
// customer's API key and hands it to the session's Durable Object (mcp-session.ts).

import { objectNamed } from "../base/placement";
import { tenantName } from "../base/tenant";
import { ApiError, problemResponse } from "../http/problem";
import { authenticate } from "../operations/authenticate";
import { jsonRpcError, sessionNotFound } from "./json-rpc-error";

export const MCP_PATH = "/mcp";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The key in x-api-key, else in Authorization: Bearer (what MCP clients' configurations can send). */
function presentedKey(headers: Headers): string | undefined {
  const bearer = headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return headers.get("x-api-key") ?? bearer;
}

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A browser sends Origin, and a page whose name was rebound to this server's address sends its own (MCP
 * requires servers to check it): a request from a browser is served only from a loopback origin (a local
 * tool, such as the MCP Inspector). MCP clients outside browsers send no Origin.
 */
function originRefused(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (origin === null) return false;
  return !URL.canParse(origin) || !LOOPBACK_HOSTNAMES.has(new URL(origin).hostname);
}

/**
 * A request without a good key is refused with 401 before any session exists (initialize
 * included); the key's environment is the session's. A session belongs to the customer
 * and environment that opened it: its object is named after them, so another customer's
 * key with the same session id reaches another, empty, object and gets 404.
 */
export async function serveMcp(request: Request, env: Env): Promise<Response> {
  if (originRefused(request.headers)) return jsonRpcError(403, -32000, "Invalid Origin header");
  const requestId = request.headers.get("cf-ray") ?? crypto.randomUUID();
  let apiKey: Awaited<ReturnType<typeof authenticate>>;
  try {
    apiKey = await authenticate(env, presentedKey(request.headers));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const response = problemResponse(error.init, requestId);
    response.headers.set("www-authenticate", 'Bearer realm="contact-info-batch"');
    return response;
  }
  const presented = request.headers.get("mcp-session-id");
  const sessionId = presented ?? crypto.randomUUID();
  if (!UUID.test(sessionId)) {
    return sessionNotFound();
  }
  const session = objectNamed(env.MCP_SESSIONS, `${tenantName(apiKey)}/${sessionId}`, apiKey.jurisdiction);
  return session.serve(request, sessionId, apiKey);
}
