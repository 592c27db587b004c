// An OAuth client as claude.ai or ChatGPT runs one against the server, step by step over raw HTTP:
// discovery from a 401, dynamic registration, the consent form (read as a person's browser would,
// with its cookie), the code with PKCE, and the token. The MCP calls then go through the official SDK.
import { createHash, randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";

export const CALLBACK = "http://127.0.0.1:33418/callback";

const base64url = (bytes: Buffer) => bytes.toString("base64url");

export interface Metadata {
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  [field: string]: unknown;
}

/** The authorization server's metadata, found as a client finds it: from the 401 at /mcp. */
export async function discover(origin: string): Promise<{ challenge: string; metadata: Metadata; resource: string }> {
  const refused = await fetch(`${origin}/mcp`, { method: "POST", body: "{}" });
  expect(refused.status).toBe(401);
  const challenge = refused.headers.get("www-authenticate") ?? "";
  const pointer = challenge.match(/resource_metadata="([^"]+)"/)?.[1] ?? "";
  const resourceMetadata = await (await fetch(pointer)).json<{ resource: string; authorization_servers: string[] }>();
  const issuer = resourceMetadata.authorization_servers[0];
  const metadata = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json<Metadata>();
  return { challenge, metadata, resource: resourceMetadata.resource };
}

export async function register(metadata: Metadata, clientName: string, callback = CALLBACK): Promise<string> {
  const response = await fetch(metadata.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: clientName,
      redirect_uris: [callback],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  expect(response.status).toBe(201);
  return (await response.json<{ client_id: string }>()).client_id;
}

export interface ConsentForm {
  status: number;
  html: string;
  action: string;
  handle: string;
  cookie: string;
  csp: string;
  verifier: string;
  state: string;
}

const fieldValue = (html: string, name: string) =>
  html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1]?.replaceAll("&#38;", "&") ?? "";

/** GET the consent page for a new authorization request (PKCE S256), as the person's browser does. */
export async function openConsent(
  metadata: Metadata,
  clientId: string,
  resource: string,
  scope = "read spend",
): Promise<ConsentForm> {
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(12));
  const url = new URL(metadata.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: CALLBACK,
    state,
    scope,
    resource,
    code_challenge: base64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
  }).toString();
  const response = await fetch(url, { redirect: "manual" });
  const html = await response.text();
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const action = new URL(fieldAction(html), url).toString();
  return {
    status: response.status,
    html,
    action,
    handle: fieldValue(html, "handle"),
    cookie,
    csp: response.headers.get("content-security-policy") ?? "",
    verifier,
    state,
  };
}

const fieldAction = (html: string) =>
  (html.match(/<form method="post" action="([^"]*)"/)?.[1] ?? "").replaceAll("&#38;", "&");

/** POSTs the consent form as the browser would, with its cookie; the answer is not followed. */
export function submitConsent(form: ConsentForm, fields: Record<string, string | string[]>): Promise<Response> {
  const body = new URLSearchParams({ handle: form.handle });
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return fetch(form.action, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: form.cookie },
    body,
  });
}

/** The code on the redirect back to the client, exchanged with the PKCE verifier for an access token. */
export async function exchange(
  metadata: Metadata,
  clientId: string,
  form: ConsentForm,
  redirect: Response,
  resource: string,
): Promise<string> {
  const location = new URL(redirect.headers.get("location") ?? "");
  expect(location.searchParams.get("state")).toBe(form.state);
  const response = await fetch(metadata.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: location.searchParams.get("code") ?? "",
      redirect_uri: CALLBACK,
      client_id: clientId,
      code_verifier: form.verifier,
      resource,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json<{ access_token: string }>()).access_token;
}

/** The official SDK client at `path` with `headers` (a bearer token or a key). */
export async function mcpClient(origin: string, path: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(path, origin), { requestInit: { headers } }));
  return client;
}

/** A protocol request (tools/list) at /mcp with the token, outside any session: its HTTP status and body. */
export async function rawList(origin: string, token: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  return { status: response.status, body: await response.text() };
}
