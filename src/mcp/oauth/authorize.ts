// GET and POST /oauth/authorize: the consent page and its answer. The library validates the request
// (client, exact redirect URI, PKCE, resource) and keeps it server-side under a handle bound to this
// browser by a __Host- cookie (the CSRF protection); we check the person's key, record the connection
// and complete the grant. The key never leaves this page: the grant carries only whose connection it is.

import {
  AuthorizationError,
  type AuthRequest,
  CimdFetchError,
  type OAuthHelpers,
} from "@cloudflare/workers-oauth-provider";
import { readConfig } from "../../base/config";
import { tenantOf } from "../../base/tenant";
import { allowanceSchema, MCP_SCOPES, type McpScope, newConnectionId } from "../../connections/connection";
import { connectionsStub } from "../../connections/stub";
import { readLimited } from "../../http/body";
import { clientMetadataUnavailable, invalidAuthorizationRequest } from "../../http/errors";
import { ApiError } from "../../http/problem";
import { authenticate } from "../../operations/authenticate";
import { authorizationServerFor } from "./authorization-server";
import { CONSENT_FIELDS, consentPage, consentPolicy } from "./consent-page";
import { type GrantProps, grantUserId } from "./grant-props";

// A handle, a key, three scopes and a number: a few hundred bytes.
const MAX_FORM_BYTES = 8 * 1024;

const isScope = (value: unknown): value is McpScope => MCP_SCOPES.some((scope) => scope === value);

/** The library's refusals, as our problems: a redirect when the library says one is safe, else shown here. */
async function refusing<T>(work: () => Promise<T>): Promise<T | Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AuthorizationError && error.redirectTo) return Response.redirect(error.redirectTo, 302);
    if (error instanceof AuthorizationError) throw invalidAuthorizationRequest(error.description);
    if (error instanceof CimdFetchError) throw clientMetadataUnavailable();
    throw error;
  }
}

async function page(
  oauth: OAuthHelpers,
  request: AuthRequest,
  url: URL,
  view: { handle: string; checked: ReadonlySet<McpScope>; allowance: string; message?: string },
  headers = new Headers(),
  status = 200,
): Promise<Response> {
  const details = await oauth.describeConsent(request);
  headers.set("content-type", "text/html; charset=utf-8");
  headers.set("cache-control", "no-store");
  headers.set("content-security-policy", await consentPolicy(request.redirectUri));
  headers.set("x-frame-options", "DENY");
  headers.set("referrer-policy", "no-referrer");
  const body = consentPage({ details, action: `${url.pathname}${url.search}`, ...view });
  return new Response(body, { status, headers });
}

/** The scopes to tick at first: those asked for that we know, or all of them when it asked for none. */
const askedScopes = (request: AuthRequest): Set<McpScope> => {
  const asked = request.scope.filter(isScope);
  return new Set(asked.length > 0 ? asked : MCP_SCOPES);
};

export async function authorize(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  const oauth = authorizationServerFor(url.origin).getOAuthApi(env);
  const parsed = await refusing(() => oauth.parseAuthRequest(request));
  if (parsed instanceof Response) return parsed;
  if (request.method !== "POST") {
    const consent = await refusing(() => oauth.beginConsent(parsed));
    if (consent instanceof Response) return consent;
    const view = {
      handle: consent.handle,
      checked: askedScopes(parsed),
      allowance: String(readConfig(env).mcpAllowanceCredits),
    };
    return refusing(() => page(oauth, parsed, url, view, consent.headers));
  }
  const form = new URLSearchParams(new TextDecoder().decode(await readLimited(request, MAX_FORM_BYTES)));
  const handle = form.get(CONSENT_FIELDS.handle) ?? "";
  if (form.get(CONSENT_FIELDS.decision) !== "allow") {
    const denied = await refusing(() => oauth.denyConsent(request, handle));
    return denied instanceof Response ? denied : new Response(null, { status: 302, headers: denied.headers });
  }
  const checked = new Set(form.getAll(CONSENT_FIELDS.scope).filter(isScope));
  const allowanceText = (form.get(CONSENT_FIELDS.allowance) ?? "").trim();
  const again = (message: string) =>
    refusing(() => page(oauth, parsed, url, { handle, checked, allowance: allowanceText, message }, undefined, 400));
  let apiKey: Awaited<ReturnType<typeof authenticate>>;
  try {
    apiKey = await authenticate(env, form.get(CONSENT_FIELDS.apiKey)?.trim() || undefined);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return again("That API key is unknown or revoked. Paste the whole key (it starts with ck_live_ or ck_test_).");
  }
  if (checked.size === 0) return again("Tick at least one thing the assistant may do, or choose Deny.");
  const allowance = allowanceSchema.safeParse(allowanceText === "" ? Number.NaN : Number(allowanceText));
  if (!allowance.success) return again("The allowance is a whole number of credits, 0 or more.");
  const approved = await refusing(() => oauth.approveConsent(request, handle, { scope: [...checked] }));
  if (approved instanceof Response) return approved;
  const details = await refusing(() => oauth.describeConsent(approved.request));
  if (details instanceof Response) return details;
  const tenant = tenantOf(apiKey);
  const props: GrantProps = { ...tenant, connectionId: newConnectionId() };
  await connectionsStub(env, tenant).add({
    id: props.connectionId,
    keyId: apiKey.keyId,
    clientId: approved.request.clientId,
    clientName: details.clientName,
    scopes: [...checked],
    allowanceCredits: allowance.data,
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
  });
  const completed = await refusing(() =>
    oauth.completeAuthorization({
      request: approved.request,
      userId: grantUserId(props),
      // Storage-visible (not encrypted): ids only, so an operator can find a connection's grant.
      metadata: { connectionId: props.connectionId, keyId: apiKey.keyId },
      scope: [...checked],
      props,
      // Each Allow is a connection of its own, listed and ended on its own.
      revokeExistingGrants: false,
    }),
  );
  if (completed instanceof Response) return completed;
  approved.headers.set("location", completed.redirectTo);
  return new Response(null, { status: 302, headers: approved.headers });
}
