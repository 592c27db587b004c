// The OAuth side of the Worker (src/index.ts routes its paths here): the protected resource's metadata,
// our consent page at /oauth/authorize, and the rest (authorization server metadata, token, revocation,
// registration) answered by @cloudflare/workers-oauth-provider. The token and registration endpoints
// answer errors in the JSON their RFCs prescribe (RFC 6749 §5.2, RFC 7591 §3.2.2), not problem+json.
import { logError } from "../../base/log";
import { internalError, methodNotAllowed, notFound } from "../../http/errors";
import { ApiError, problemResponse } from "../../http/problem";
import { authorizationServerFor } from "./authorization-server";
import { authorize } from "./authorize";
import { AUTHORIZE_PATH, PROTECTED_RESOURCE_METADATA_PATH } from "./paths";
import { protectedResourceMetadata } from "./protected-resource";

export async function serveOAuth(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const requestId = request.headers.get("cf-ray") ?? crypto.randomUUID();
  const url = new URL(request.url);
  try {
    if (url.pathname.startsWith(PROTECTED_RESOURCE_METADATA_PATH)) {
      if (request.method !== "GET" && request.method !== "HEAD") throw methodNotAllowed(request.method, ["GET"]);
      const metadata = protectedResourceMetadata(url);
      if (!metadata) throw notFound();
      return metadata;
    }
    if (url.pathname === AUTHORIZE_PATH) {
      if (request.method !== "GET" && request.method !== "POST")
        throw methodNotAllowed(request.method, ["GET", "POST"]);
      return await authorize(request, env);
    }
    const answer = await authorizationServerFor(url.origin).fetch(request, env, ctx);
    if (answer.status === 404) throw notFound();
    return answer;
  } catch (error) {
    if (error instanceof ApiError) return problemResponse(error.init, requestId);
    logError("oauth_failed", error, { requestId, method: request.method, path: url.pathname });
    return problemResponse(internalError().init, requestId);
  }
}
