import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../scripts/local-server";
import { CALLBACK } from "./oauth-client";

// The official SDK's (1.x) own OAuth client against `wrangler dev`, as an MCP host runs it: it finds the
// authorization server from the 401, registers itself, and sends the person to the consent page; the
// "person" here fills the form (its cookie-bound handle and the key), and the SDK exchanges the code with
// its PKCE verifier, then calls a tool with the token.
let server: LocalServer;
let key: ServerKey;

beforeAll(async () => {
  server = await startLocalServer({
    prepare: async (state) => {
      const [seeded] = await seedKeys(state, [{ customerId: "cus_sdk_oauth", environment: "test" }]);
      if (!seeded) throw new Error("no key seeded");
      key = seeded;
    },
  });
});
afterAll(async () => {
  await server?.stop();
});

/** What a person does in the browser the SDK opened: read the form, paste the key, Allow. The callback's URL. */
async function consent(authorization: URL): Promise<URL> {
  const page = await fetch(authorization);
  const html = await page.text();
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const handle = html.match(/name="handle" value="([^"]*)"/)?.[1] ?? "";
  const action = (html.match(/<form method="post" action="([^"]*)"/)?.[1] ?? "").replaceAll("&#38;", "&");
  const allowed = await fetch(new URL(action, authorization), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ handle, api_key: key.key, scope: "read", allowance_credits: "100", decision: "allow" }),
  });
  expect(allowed.status).toBe(302);
  return new URL(allowed.headers.get("location") ?? "");
}

class TestProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorization?: URL;
  readonly redirectUrl = CALLBACK;
  readonly clientMetadata = {
    client_name: "SDK test host",
    redirect_uris: [CALLBACK],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation = () => this.information;
  saveClientInformation = (information: OAuthClientInformationMixed) => {
    this.information = information;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.authorization = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
}

describe("the official SDK's OAuth client (1.x)", () => {
  it("discovers, registers, is sent to the consent page, exchanges the code and calls a tool with the token", async () => {
    const provider = new TestProvider();
    const url = new URL("/mcp", server.url);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: "sdk-oauth", version: "1.0.0" }).connect(first)).rejects.toThrow(/Unauthorized/);
    expect(provider.authorization?.origin).toBe(server.url);
    expect(provider.authorization?.searchParams.get("resource")).toBe(`${server.url}/mcp`);

    const callback = await consent(provider.authorization ?? new URL(server.url));
    expect(callback.searchParams.get("iss")).toBe(server.url);
    await first.finishAuth(callback.searchParams.get("code") ?? "");
    expect(provider.saved?.access_token).toBeTruthy();

    const client = new Client({ name: "sdk-oauth", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const usage = await client.callTool({ name: "get_usage", arguments: {} });
    expect(usage.isError).toBeFalsy();
    await client.close();
  });
});
