import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountStub } from "../../../src/account/stub";
import { connect, hubspotPortal, salesforceOrg } from "../../crm-fake";
import { createKey, expectProblem, request } from "../../helpers";
import { ownerOf } from "../../test-keys";

// Connections (PUT/GET/DELETE …/integrations): the token is checked with the CRM before it is saved,
// stored sealed, never returned.

describe("connecting a CRM", () => {
  it("checks a HubSpot token with HubSpot, saves it sealed, lists it without it, and disconnects", async () => {
    const { key } = await createKey();
    const token = await hubspotPortal([]);
    const connected = await connect(key, "hubspot", { token });
    expect(connected.status).toBe(200);
    const body = await connected.json<Record<string, unknown>>();
    expect(body).toEqual({
      provider: "hubspot",
      accountId: expect.stringMatching(/^\d+$/),
      connectedAt: expect.any(String),
    });

    const listed = await request("/v2/test/integrations", { key });
    expect(await listed.json()).toEqual({ integrations: [body] });
    expect(JSON.stringify(body)).not.toContain(token);
    expect(await (await request("/v2/test/integrations/hubspot", { key })).json()).toEqual(body);
    expect((await request("/v2/test/integrations/salesforce", { key })).status).toBe(404);

    // At rest: AES-GCM under CRM_TOKEN_SECRET, never the token itself.
    const stored = await runInDurableObject(accountStub(env, ownerOf(key)), (_, state) =>
      state.storage.sql.exec<{ sealed_token: string }>("SELECT sealed_token FROM crm_connections").one(),
    );
    expect(stored.sealed_token).toMatch(/^v1\./);
    expect(stored.sealed_token).not.toContain(token.slice(8));

    expect((await request("/v2/test/integrations/hubspot", { method: "DELETE", key })).status).toBe(204);
    expect(await (await request("/v2/test/integrations", { key })).json()).toEqual({ integrations: [] });
    await expectProblem(await request("/v2/test/integrations/hubspot", { method: "DELETE", key }), 404, "not_found");
  });

  it("refuses a token HubSpot refuses, and saves nothing", async () => {
    const { key } = await createKey();
    await expectProblem(await connect(key, "hubspot", { token: "pat-na1-unknown" }), 422, "crm_token_refused");
    expect(await (await request("/v2/test/integrations", { key })).json()).toEqual({ integrations: [] });
  });

  it("refuses a Salesforce instance URL off the allowed hosts, and an unknown CRM", async () => {
    const { key } = await createKey();
    for (const instanceUrl of [
      undefined,
      "https://evil.example.com",
      "http://acme.salesforce.test",
      "https://acme.salesforce.test/x",
      "https://user:secret@acme.salesforce.test",
      "https://:secret@acme.salesforce.test",
      "https://acme.salesforce.test#top",
      "https://acme.salesforce.test/?",
      "https://acme.salesforce.test?instance=1",
      "https://acme.salesforce.test//",
    ]) {
      const body = await expectProblem(
        await connect(key, "salesforce", { token: "00D!x", instanceUrl }),
        400,
        "invalid_request",
      );
      expect(body.errors).toEqual([{ path: "instanceUrl", message: expect.stringContaining("*.salesforce.test") }]);
    }
    await expectProblem(await connect(key, "pipedrive", { token: "x" }), 404, "not_found");
    expect(await (await request("/v2/test/integrations", { key })).json()).toEqual({ integrations: [] });
    await expectProblem(await connect(key, "hubspot", { token: "" }), 400, "invalid_request");
  });

  it("saves a Salesforce instance URL as its origin", async () => {
    const { key } = await createKey();
    const token = await salesforceOrg([]);
    const connected = await connect(key, "salesforce", { token, instanceUrl: "HTTPS://Acme.salesforce.test/" });
    expect(connected.status).toBe(200);
    const stored = await runInDurableObject(accountStub(env, ownerOf(key)), (_, state) =>
      state.storage.sql.exec<{ base_url: string }>("SELECT base_url FROM crm_connections").one(),
    );
    expect(stored.base_url).toBe("https://acme.salesforce.test");
  });
});
