import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/base/config";
import { readCrmConfig } from "../../src/crm/crm-config";
import { hubspot } from "../../src/crm/hubspot";
import { salesforce } from "../../src/crm/salesforce";
import { apollo } from "../../src/enrichment/apollo-provider";
import { readVendorConfig } from "../../src/enrichment/vendor-config";
import { TOOLS } from "../../src/mcp/tools";
import { type LimitingMiddleware, limitOf } from "../../src/middleware/rate-limit";
import { endpointLimit } from "../../src/rate-limit/endpoint-types";
import { API_ROUTES, apiOperations } from "../../src/routes/api-routes";
import { envWith } from "../helpers";

describe("endpoint limits", () => {
  const config = readConfig(env);

  it("default to Tier 3 = 50/60 s for submit and Tier 4 = 100/60 s for reads", () => {
    const operations = apiOperations("test");
    expect(endpointLimit("contact_info_request", operations.contact_info_request, config)).toEqual({
      endpointType: "contact_info_request",
      tier: "Tier 3",
      operations: [
        "POST /v2/test/person/contact-info",
        "POST /v2/test/person/contact-info/estimate",
        "DELETE /v2/test/person/contact-info/{id}",
        "POST /v2/test/feedback",
        "DELETE /v2/test/me/connections/{id}",
        "POST /v2/test/privacy/erasures",
        "PUT /v2/test/privacy/suppressions",
        "DELETE /v2/test/privacy/suppressions/{key}",
        "DELETE /v2/test/privacy/do-not-deliver/{key}",
        "PUT /v2/test/integrations/{provider}",
        "DELETE /v2/test/integrations/{provider}",
        "POST /v2/test/crm-syncs",
        "POST /v2/test/crm-syncs/{id}/apply",
        "POST /v2/test/crm-syncs/{id}/undo",
        "POST /v2/test/webhook-endpoints",
        "PATCH /v2/test/webhook-endpoints/{id}",
        "DELETE /v2/test/webhook-endpoints/{id}",
        "POST /v2/test/webhook-endpoints/{id}/rotate-secret",
        "POST /v2/test/webhook-endpoints/{id}/test",
        "POST /v2/test/webhook-endpoints/{id}/recover",
        "POST /v2/test/webhook-deliveries/{id}/redeliver",
      ],
      limit: 50,
      windowSeconds: 60,
    });
    expect(endpointLimit("contact_info_status", [], config)).toMatchObject({
      tier: "Tier 4",
      limit: 100,
      windowSeconds: 60,
    });
  });

  it("are an MCP tool's as they are its REST route's: every tool runs an operation a /v2 route counts by", () => {
    const counted = API_ROUTES["/v2/:environment"]
      .flatMap(({ route }) => [route.middleware ?? []].flat())
      .filter((handler): handler is LimitingMiddleware => limitOf(handler) !== undefined)
      .map(({ operation }) => operation);
    for (const tool of TOOLS) expect(counted, tool.name).toContain(tool.operation);
    // Not vacuous: the routes count by many more operations than the tools run.
    expect(new Set(counted).size).toBeGreaterThan(TOOLS.length);
  });

  it("count, per endpoint type, the operations whose routes declare it (each route's rateLimit)", () => {
    const live = apiOperations("live");
    expect(live.contact_info_status).toEqual([
      "GET /v2/live/person/contact-info/{id}",
      "GET /v2/live/person/contact-info",
      "GET /v2/live/person/contact-info/{id}/events",
      "GET /v2/live/integrations",
      "GET /v2/live/integrations/{provider}",
      "GET /v2/live/integrations/{provider}/lists",
      "GET /v2/live/crm-syncs/{id}",
      "GET /v2/live/webhook-endpoints",
      "GET /v2/live/webhook-endpoints/{id}",
      "GET /v2/live/webhook-deliveries",
      "GET /v2/live/webhook-deliveries/{id}",
    ]);
    expect(endpointLimit("rate_limits", live.rate_limits, config)).toMatchObject({
      tier: "Tier 4",
      operations: [
        "GET /v2/live/me/rate-limits",
        "GET /v2/live/me/usage",
        "GET /v2/live/me/sources",
        "GET /v2/live/me/connections",
        "GET /v2/live/me/budget",
        "PUT /v2/live/me/budget",
        "GET /v2/live/me/ledger",
        "GET /v2/live/privacy/erasures/{id}",
        "GET /v2/live/privacy/suppressions",
        "GET /v2/live/privacy/do-not-deliver",
      ],
    });
  });

  it("are declared by every /v2 route: none is served without an endpoint type", () => {
    const unlimited = API_ROUTES["/v2/:environment"]
      .filter(({ route }) => limitOf(route.middleware) === undefined)
      .map(({ route }) => `${route.method} ${route.path}`);
    expect(unlimited).toEqual([]);
  });

  it("count MCP's protocol requests as mcp_protocol: 300 per 60 s by default, MCP_PROTOCOL_LIMIT/_WINDOW_SECONDS", () => {
    const operations = apiOperations("test");
    expect(endpointLimit("mcp_protocol", operations.mcp_protocol, config)).toEqual({
      endpointType: "mcp_protocol",
      tier: "MCP",
      operations: ["POST /mcp: every JSON-RPC request but tools/call (initialize, tools/list, ping, …)"],
      limit: 300,
      windowSeconds: 60,
    });
    const configured = readConfig(envWith({ MCP_PROTOCOL_LIMIT: "40", MCP_PROTOCOL_WINDOW_SECONDS: "10" }));
    expect(endpointLimit("mcp_protocol", [], configured)).toMatchObject({ limit: 40, windowSeconds: 10 });
  });

  it("take a key's override over the tier default", () => {
    const overrides = { contact_info_request: { limit: 5, windowSeconds: 10 } };
    expect(endpointLimit("contact_info_request", [], config, overrides)).toMatchObject({
      limit: 5,
      windowSeconds: 10,
    });
    expect(endpointLimit("rate_limits", [], config, overrides)).toMatchObject({ limit: 100 });
  });
});

describe("config", () => {
  it("accepts numbers given as strings, as `wrangler dev --var` passes them", () => {
    expect(readConfig(envWith({ MAX_BATCH_ITEMS: "25" })).maxBatchItems).toBe(25);
  });

  it("refuses a var that is not a whole number", () => {
    expect(() => readConfig(envWith({ TIER_3_LIMIT: "lots" }))).toThrow(/TIER_3_LIMIT/);
  });

  it("reads VENDOR_RATE_LIMITS as each vendor's windows, keeping the published limits of the others", () => {
    const { vendorLimits } = readVendorConfig(
      envWith({ VENDOR_GOVERNOR: "on", VENDOR_RATE_LIMITS: " hunter=30/1+1000/60 , pdl=1000/60" }),
    );
    expect(vendorLimits?.get("hunter")).toEqual([
      { limit: 30, seconds: 1 },
      { limit: 1000, seconds: 60 },
    ]);
    expect(vendorLimits?.get("pdl")).toEqual([{ limit: 1000, seconds: 60 }]);
    expect(vendorLimits?.get("apollo")).toEqual(apollo.limits);
    expect(readVendorConfig(envWith({ VENDOR_GOVERNOR: "off" })).vendorLimits).toBeNull();
  });

  it("refuses a VENDOR_RATE_LIMITS entry it cannot read, naming it", () => {
    for (const entry of ["hunterr=10/1", "hunter=10", "hunter=0/1", "pdl=10/1+x"]) {
      expect(() => readVendorConfig(envWith({ VENDOR_GOVERNOR: "on", VENDOR_RATE_LIMITS: entry }))).toThrow(
        /VENDOR_RATE_LIMITS entry/,
      );
    }
  });

  it("reads CRM_RATE_LIMITS as a CRM token's windows (HubSpot Professional's 190 per 10 s), keeping the declared others", () => {
    expect(readCrmConfig(env).limits.get("hubspot")).toEqual(hubspot.limits);
    const { limits } = readCrmConfig(envWith({ CRM_RATE_LIMITS: "hubspot=190/10" }));
    expect(limits.get("hubspot")).toEqual([{ limit: 190, seconds: 10 }]);
    expect(limits.get("salesforce")).toEqual(salesforce.limits);
    expect(() => readCrmConfig(envWith({ CRM_RATE_LIMITS: "pipedrive=10/2" }))).toThrow(/CRM_RATE_LIMITS entry/);
  });

  it("refuses a retry backoff whose base is over its cap", () => {
    expect(() => readConfig(envWith({ RETRY_BASE_DELAY_SECONDS: "60", RETRY_MAX_DELAY_SECONDS: "30" }))).toThrow(
      /RETRY_BASE_DELAY_SECONDS must not exceed RETRY_MAX_DELAY_SECONDS/,
    );
  });
});
