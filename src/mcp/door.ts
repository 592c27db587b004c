// /mcp and /mcp/key: the MCP server's doors (Streamable HTTP). Authenticates every request as a principal
// (oauth/grant-principal.ts: an API key at both, an OAuth token at /mcp only), reads a
// POST's body within MCP_BODY_LIMIT, counts it against the key's limits (and a 2025 session against the
// key's cap: the customer's RateLimiter, one call), and hands it on: a request of the 2026-07-28 revision
// (its `_meta` envelope) to a stateless server made for it (modern-server.ts), one of the 2025 revisions
// to its session's Durable Object (mcp-session.ts). Whatever fails answers a problem or a JSON-RPC
// error: never a stack trace.

import { readConfig } from "../base/config";
import type { Environment } from "../base/environment";
import { logError } from "../base/log";
import { objectNamed } from "../base/placement";
import { tenantName } from "../base/tenant";
import { isUuid } from "../base/uuid";
import { readLimited } from "../http/body";
import { internalError, invalidApiKey } from "../http/errors";
import { ApiError, problemResponse } from "../http/problem";
import type { ApiKeyRecord } from "../keys/api-key";
import { type EndpointType, effectiveSettings } from "../rate-limit/endpoint-types";
import type { McpAdmission } from "../rate-limit/mcp-sessions";
import { rateLimited } from "../rate-limit/rate-limited";
import { limiterStub } from "../rate-limit/stub";
import { jsonRpcError, sessionNotFound } from "./json-rpc-error";
import { isInitialize, protocolRequests } from "./messages";
import { mcpPrincipal } from "./oauth/grant-principal";
import { toWire } from "./principal";
import { RecentRefusals } from "./refusals";

export const MCP_PATH = "/mcp";

/**
 * A POST to /mcp is refused with 413 past MAX_BODY_BYTES (REST's limit on a submit) and this much
 * more, room for the JSON-RPC envelope around the largest batch a tool takes.
 */
const MCP_ENVELOPE_BYTES = 64 * 1024;

// A body over the limit by at most this much is read (and dropped) before the 413, so that the client,
// still uploading, reads it; past that the upload is cut.
const DRAIN_BYTES = 32 * 1024 * 1024;

const refusals = new RecentRefusals();

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

/** A POST's body as JSON within the limit (413 past it, declared or streamed), or `unreadable`. */
async function readBody(request: Request, env: Env): Promise<{ json: unknown } | "unreadable"> {
  const bytes = await readLimited(request, readConfig(env).maxBodyBytes + MCP_ENVELOPE_BYTES, DRAIN_BYTES);
  try {
    return { json: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return "unreadable";
  }
}

/**
 * A request without a good key is refused with 401 before any session exists (initialize
 * included); the key's environment is the session's. A session belongs to the customer
 * and environment that opened it: its object is named after them, so another customer's
 * key with the same session id reaches another, empty, object and gets 404.
 */
export async function serveMcp(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  countedIn: (environment: Environment) => Record<EndpointType, string[]>,
): Promise<Response> {
  const requestId = request.headers.get("cf-ray") ?? crypto.randomUUID();
  try {
    return await admitted(request, env, ctx, requestId, countedIn);
  } catch (error) {
    if (error instanceof ApiError) return problemResponse(error.init, requestId);
    logError("mcp_door_failed", error, { requestId, method: request.method });
    return problemResponse(internalError().init, requestId);
  }
}

async function admitted(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  requestId: string,
  countedIn: (environment: Environment) => Record<EndpointType, string[]>,
): Promise<Response> {
  if (originRefused(request.headers)) return jsonRpcError(403, -32000, "Invalid Origin header");
  // An API key (x-api-key, or Bearer ck_…) at both doors, an OAuth token at /mcp; a 401 carries its challenge.
  const principal = await mcpPrincipal(request, env);
  const { apiKey } = principal;
  const counted = countedIn(apiKey.environment);
  const body = request.method === "POST" ? await readBody(request, env) : undefined;
  const json = body === undefined || body === "unreadable" ? undefined : body.json;
  // Loaded on an isolate's first MCP request, not at its startup (as the 2025 session server is).
  const modern = await import("./modern-server");
  if (body !== "unreadable" && !(await modern.isLegacy(request, json))) {
    const requests = protocolRequests(json);
    await admitProtocol(env, apiKey, {
      keyId: apiKey.keyId,
      protocolRequests: requests,
      rules: readConfig(env).mcpSessions,
    });
    return modern.serveModern(request, env, principal, json, counted);
  }
  const presented = request.headers.get("mcp-session-id");
  if (presented !== null && !isUuid(presented)) return sessionNotFound();
  // A GET (the client's stream) or a DELETE (its end) carries no request: it only names its session.
  const requests = body === undefined ? 0 : body === "unreadable" ? 1 : protocolRequests(json);
  const opening = presented === null && isInitialize(json);
  const session = presented !== null ? { kind: "use" as const, id: presented } : undefined;
  const admission: McpAdmission = {
    keyId: apiKey.keyId,
    protocolRequests: requests,
    session: opening ? { kind: "open", id: crypto.randomUUID() } : session,
    rules: readConfig(env).mcpSessions,
  };
  const answer = await admitProtocol(env, apiKey, admission);
  if (answer.kind === "unknown_session") return sessionNotFound();
  for (const displaced of answer.displaced) {
    ctx.waitUntil(
      sessionStub(env, apiKey, displaced)
        .close()
        .catch((error: unknown) => logError("mcp_session_close_failed", error, { requestId }, "warn")),
    );
  }
  if (body === "unreadable") return jsonRpcError(400, -32700, "Parse error: Invalid JSON");
  if (!admission.session) return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
  // The body was read here: the session gets it parsed, beside the request's method, URL and headers.
  const forwarded = new Request(request.url, { method: request.method, headers: request.headers });
  return sessionStub(env, apiKey, admission.session.id).serve(
    forwarded,
    admission.session.id,
    toWire(principal),
    counted,
    json,
  );
}

/** Counts the request's protocol requests (and opens or checks its 2025 session): refused when revoked or over the limit. */
async function admitProtocol(env: Env, apiKey: ApiKeyRecord, admission: McpAdmission) {
  const remembered = admission.protocolRequests > 0 ? refusals.refused(apiKey.keyId, Date.now()) : undefined;
  if (remembered) throw rateLimited("mcp_protocol", remembered);
  const answer = await limiterStub(env, apiKey).admitMcp(
    admission,
    effectiveSettings(readConfig(env), apiKey.rateLimits),
  );
  if (answer.kind === "revoked") throw invalidApiKey();
  if (answer.kind === "rate_limited") {
    refusals.note(apiKey.keyId, answer.decision, Date.now());
    throw rateLimited("mcp_protocol", answer.decision);
  }
  return answer;
}

const sessionStub = (env: Env, apiKey: ApiKeyRecord, sessionId: string) =>
  objectNamed(env.MCP_SESSIONS, `${tenantName(apiKey)}/${sessionId}`, apiKey.jurisdiction);
