import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../scripts/local-server";
import { runTool, until } from "../blackbox-helpers";
import { errorOf } from "./helpers";
import {
  CALLBACK,
  discover,
  exchange,
  type Metadata,
  mcpClient,
  openConsent,
  rawList,
  register,
  submitConsent,
} from "./oauth-client";

// /mcp as an OAuth 2.1 protected resource and /mcp/key as the header door, against `wrangler dev`:
// the whole flow a person goes through to connect claude.ai or ChatGPT (issue 48, items 2 and 3).
const ADMIN_TOKEN = `adm_${crypto.randomUUID().replaceAll("-", "")}`;
let server: LocalServer;
let owner: ServerKey;
let other: ServerKey;
let revoked: ServerKey;
let metadata: Metadata;
let resource: string;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startLocalServer({
    vars: { ADMIN_TOKEN },
    prepare: async (state) => {
      const seeded = await seedKeys(state, [
        { customerId: "cus_oauth_owner", environment: "test" },
        { customerId: "cus_oauth_other", environment: "test" },
        { customerId: "cus_oauth_revoked", environment: "test" },
      ]);
      [owner, other, revoked] = seeded as [ServerKey, ServerKey, ServerKey];
    },
  });
  ({ metadata, resource } = await discover(server.url));
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await server?.stop();
});

interface Listed {
  id: string;
  clientName: string;
}
const connections = (key: ServerKey) =>
  fetch(`${server.url}/v2/test/me/connections`, { headers: { "x-api-key": key.key } }).then((r) =>
    r.json<{ connections: Listed[] }>(),
  );

/** The whole flow for `key`: registration, the consent form allowed, the token. */
async function connect(key: ServerKey, clientName: string, fields: Record<string, string | string[]> = {}) {
  const clientId = await register(metadata, clientName);
  const form = await openConsent(metadata, clientId, resource);
  const allowed = await submitConsent(form, {
    api_key: key.key,
    scope: ["read", "spend"],
    allowance_credits: "100",
    decision: "allow",
    ...fields,
  });
  expect(allowed.status).toBe(302);
  return exchange(metadata, clientId, form, allowed, resource);
}

describe("discovery", () => {
  it("answers 401 with resource_metadata at /mcp, names <origin>/mcp as the resource, and publishes the server's metadata", async () => {
    const found = await discover(server.url);
    expect(found.challenge).toBe(`Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`);
    expect(found.resource).toBe(`${server.url}/mcp`);
    const root = await (await fetch(`${server.url}/.well-known/oauth-protected-resource`)).json<{ resource: string }>();
    expect(root.resource).toBe(`${server.url}/mcp`);
    expect(found.metadata).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      registration_endpoint: `${server.url}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });
});

describe("the consent page and the token", () => {
  it("shows the assistant's name escaped, under a strict CSP, with a key field, the scopes, an allowance, Allow and Deny", async () => {
    const clientId = await register(metadata, "Claude <script>alert(1)</script>");
    const form = await openConsent(metadata, clientId, resource);
    expect(form.status).toBe(200);
    expect(form.html).toContain("Claude &#60;script&#62;alert(1)&#60;/script&#62;");
    expect(form.html).not.toContain("<script>");
    expect(form.html).toMatch(/<input[^>]+type="password" name="api_key"/);
    for (const scope of ["read", "spend", "erase"]) expect(form.html).toContain(`value="${scope}"`);
    expect(form.html).toMatch(/name="allowance_credits"[^>]+value="100"/);
    expect(form.html).toContain('value="allow">Allow</button>');
    expect(form.html).toContain('value="deny" formnovalidate>Deny</button>');
    expect(form.csp).toContain("default-src 'none'");
    expect(form.csp).toContain("frame-ancestors 'none'");
    expect(form.csp).not.toContain("script-src");
    expect(form.cookie).toMatch(/^__Host-/);
  });

  it("shows the page again with a plain message and no code for a wrong key", async () => {
    const clientId = await register(metadata, "Wrong key assistant");
    const form = await openConsent(metadata, clientId, resource);
    const refused = await submitConsent(form, {
      api_key: "ck_test_00000000000000000000000000000000",
      scope: "read",
      allowance_credits: "100",
      decision: "allow",
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("location")).toBeNull();
    const html = await refused.text();
    expect(html).toContain("That API key is unknown or revoked.");
    expect(html).not.toContain("ck_test_0000");
    // The same form still works with the right key.
    const allowed = await submitConsent(form, {
      api_key: owner.key,
      scope: "read",
      allowance_credits: "0",
      decision: "allow",
    });
    expect(allowed.status).toBe(302);
    expect(new URL(allowed.headers.get("location") ?? "").searchParams.get("code")).toBeTruthy();
    // A handle works once.
    const again = await submitConsent(form, {
      api_key: owner.key,
      scope: "read",
      allowance_credits: "0",
      decision: "allow",
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: "invalid_authorization_request" });
  });

  it("refuses a form posted without the browser's cookie (CSRF)", async () => {
    const clientId = await register(metadata, "Forged assistant");
    const form = await openConsent(metadata, clientId, resource);
    const forged = await submitConsent(
      { ...form, cookie: "" },
      { api_key: owner.key, scope: "read", decision: "allow", allowance_credits: "1" },
    );
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: "invalid_authorization_request" });
  });

  it("redirects a Deny with error=access_denied, the state and iss", async () => {
    const clientId = await register(metadata, "Denied assistant");
    const form = await openConsent(metadata, clientId, resource);
    const denied = await submitConsent(form, { decision: "deny" });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe(form.state);
    expect(location.searchParams.get("iss")).toBe(server.url);
    expect(location.searchParams.get("code")).toBeNull();
  });

  it("gives a token bound to <origin>/mcp that calls the tools, lists the connection, and stops at once when it is deleted", async () => {
    const token = await connect(owner, "Claude");
    const client = await mcpClient(server.url, "/mcp", { authorization: `Bearer ${token}` });
    clients.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("get_usage");
    const usage = await client.callTool({ name: "get_usage", arguments: {} });
    expect(usage.isError).toBeFalsy();

    // The owner's other connections are the earlier tests' assistants.
    const listed = (await connections(owner)).connections.filter((connection) => connection.clientName === "Claude");
    expect(listed).toEqual([
      {
        id: expect.stringMatching(/^conn_/),
        clientName: "Claude",
        scopes: ["read", "spend"],
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
      },
    ]);
    const id = listed[0]?.id ?? "";
    // Another customer sees none of it, and cannot end it.
    expect((await connections(other)).connections).toEqual([]);
    const foreign = await fetch(`${server.url}/v2/test/me/connections/${id}`, {
      method: "DELETE",
      headers: { "x-api-key": other.key },
    });
    expect(foreign.status).toBe(404);
    expect((await rawList(server.url, token)).status).toBe(200);

    const deleted = await fetch(`${server.url}/v2/test/me/connections/${id}`, {
      method: "DELETE",
      headers: { "x-api-key": owner.key },
    });
    expect(deleted.status).toBe(204);
    const refused = await until(() => rawList(server.url, token), {
      what: "the deleted connection's token refused",
      done: (answer) => answer.status === 401,
      timeoutMs: 2_000,
    });
    expect(JSON.parse(refused.body)).toMatchObject({ code: "invalid_token" });
    expect((await connections(owner)).connections.map((connection) => connection.id)).not.toContain(id);
  });

  it("holds a token to the scopes and the allowance its person chose on the consent page", async () => {
    const person = { firstName: "Oscar", lastName: "Scope", companyDomain: "scope.example" };
    const reader = await mcpClient(server.url, "/mcp", {
      authorization: `Bearer ${await connect(owner, "Reader", { scope: "read", allowance_credits: "100" })}`,
    });
    const careful = await mcpClient(server.url, "/mcp", {
      authorization: `Bearer ${await connect(owner, "Careful", { scope: ["read", "spend"], allowance_credits: "0" })}`,
    });
    clients.push(reader, careful);
    const call = (client: Client, name: string, args: Record<string, unknown>) =>
      client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    const batchCount = () =>
      fetch(`${server.url}/v2/test/person/contact-info?limit=100`, { headers: { "x-api-key": owner.key } })
        .then((r) => r.json<{ batches: unknown[] }>())
        .then((list) => list.batches.length);
    const before = await batchCount();
    // Read only: reads run; spending and erasing are refused before anything is made.
    expect((await call(reader, "get_usage", {})).isError).toBeFalsy();
    for (const [name, args, scope] of [
      ["enrich_contact_info", { items: [person], maxCredits: 1 }, "spend"],
      ["erase_person", { email: "oscar@scope.example" }, "erase"],
    ] as const) {
      expect(errorOf(await call(reader, name, args))).toMatchObject({ code: "insufficient_scope" });
      expect(JSON.stringify(errorOf(await call(reader, name, args)))).toContain(scope);
    }
    // An allowance of 0: even the agent's own maxCredits of 1 is asked, and this client cannot be asked.
    expect(
      errorOf(await call(careful, "enrich_contact_info", { items: [person], fields: ["email"], maxCredits: 1 })),
    ).toMatchObject({ code: "confirmation_required", maxCredits: 1 });
    expect(await batchCount()).toBe(before);
  });

  it("refuses a token presented at /mcp/key, and a made-up token at /mcp with an invalid_token challenge", async () => {
    const token = await connect(owner, "Key door tester");
    const atKeyDoor = await fetch(`${server.url}/mcp/key`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(atKeyDoor.status).toBe(401);
    expect(atKeyDoor.headers.get("www-authenticate")).not.toContain("resource_metadata");
    const madeUp = await rawList(server.url, "not-a-token");
    expect(madeUp.status).toBe(401);
    expect(JSON.parse(madeUp.body)).toMatchObject({ code: "invalid_token" });
  });
});

describe("revoking the API key", () => {
  it("stops every token granted with it within 2 s of `npm run keys -- revoke`", async () => {
    const token = await connect(revoked, "Revoked key's assistant");
    expect((await rawList(server.url, token)).status).toBe(200);
    const result = await runTool(
      "npm",
      [
        "run",
        "--silent",
        "keys",
        "--",
        "revoke",
        revoked.keyId,
        "--persist-to",
        server.state,
        "--base-url",
        server.url,
      ],
      {
        env: {
          ...process.env,
          CONTACT_INFO_ADMIN_TOKEN: ADMIN_TOKEN,
          WRANGLER_SEND_METRICS: "false",
          CLOUDFLARE_CF_FETCH_ENABLED: "false",
        },
        timeoutMs: 120_000,
      },
    );
    expect(result.status, result.stderr).toBe(0);
    const refused = await until(() => rawList(server.url, token), {
      what: "the revoked key's token refused",
      done: (answer) => answer.status === 401,
      timeoutMs: 2_000,
    });
    expect(JSON.parse(refused.body)).toMatchObject({ code: "invalid_token" });
  }, 180_000);
});

describe("/mcp/key", () => {
  it("serves the same tools with a key in x-api-key or Authorization: Bearer ck_…", async () => {
    const ways: Record<string, string>[] = [{ "x-api-key": owner.key }, { authorization: `Bearer ${owner.key}` }];
    for (const headers of ways) {
      const client = await mcpClient(server.url, "/mcp/key", headers);
      clients.push(client);
      const viaKeyDoor = (await client.listTools()).tools.map((tool) => tool.name);
      const direct = await mcpClient(server.url, "/mcp", { "x-api-key": owner.key });
      clients.push(direct);
      expect(viaKeyDoor).toEqual((await direct.listTools()).tools.map((tool) => tool.name));
    }
  });

  it("answers 401 without a key, with no resource_metadata (no OAuth discovery)", async () => {
    const response = await fetch(`${server.url}/mcp/key`, { method: "POST", body: "{}" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate") ?? "").not.toContain("resource_metadata");
    expect(await response.json()).toMatchObject({ code: "missing_api_key" });
  });
});
