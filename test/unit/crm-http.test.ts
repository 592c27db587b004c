import { describe, expect, it } from "vitest";
import {
  type CrmCall,
  CrmRefusedError,
  CrmUnauthorizedError,
  CrmUnavailableError,
  crmFetch,
} from "../../src/crm/crm-http";
import { VendorHeldError } from "../../src/enrichment/call-gate";

// A CRM call's answers sorted: a 401 is the token, a 429 pauses the token's budget for the wait its
// headers name (Retry-After, else HubSpot's X-HubSpot-RateLimit-Interval-Milliseconds), 5xx waits.

function callAnswering(response: Response) {
  const taken: string[] = [];
  const paused: number[] = [];
  const call: CrmCall = {
    provider: "hubspot",
    timeoutMs: 1000,
    fetch: async () => response,
    gate: {
      take: async () => {
        taken.push("token");
      },
      pause: async (seconds) => {
        paused.push(seconds);
      },
    },
  };
  return { call, taken, paused };
}

const request = () => new Request("https://hubspot.test/crm/v3/objects/contacts/batch/read", { method: "POST" });

describe("crmFetch", () => {
  it("takes a token of the budget for each call, and answers the accepted statuses' JSON", async () => {
    const { call, taken } = callAnswering(Response.json({ results: [] }, { status: 207 }));
    expect(await crmFetch(call, request(), [200, 207])).toEqual({ status: 207, body: { results: [] } });
    expect(taken).toEqual(["token"]);
  });

  it("pauses the token's budget for HubSpot's rolling window on a 429", async () => {
    const limited = new Response("{}", {
      status: 429,
      headers: { "x-hubspot-ratelimit-interval-milliseconds": "10000", "x-hubspot-ratelimit-remaining": "0" },
    });
    const { call, paused } = callAnswering(limited);
    const error = await crmFetch(call, request()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CrmUnavailableError);
    expect(error).toMatchObject({ retryAfterSeconds: 10 });
    expect(paused).toEqual([10]);
  });

  it("prefers Retry-After, and waits out a 5xx without pausing anyone", async () => {
    const { call, paused } = callAnswering(new Response("", { status: 503, headers: { "retry-after": "3" } }));
    await expect(crmFetch(call, request())).rejects.toMatchObject({ retryAfterSeconds: 3 });
    expect(paused).toEqual([]);
  });

  it("tells a refused token (401, Salesforce's INVALID_SESSION_ID too) from any other refusal", async () => {
    const session = Response.json([{ errorCode: "INVALID_SESSION_ID" }], { status: 401 });
    await expect(crmFetch(callAnswering(session).call, request())).rejects.toBeInstanceOf(CrmUnauthorizedError);
    const scopes = Response.json({ category: "MISSING_SCOPES" }, { status: 403 });
    await expect(crmFetch(callAnswering(scopes).call, request())).rejects.toMatchObject({ status: 403 });
    await expect(
      crmFetch(callAnswering(new Response("<html>", { status: 200 })).call, request()),
    ).rejects.toBeInstanceOf(CrmRefusedError);
  });

  it("waits as the governor says when it holds the call back, and never calls the CRM", async () => {
    let called = false;
    const call: CrmCall = {
      provider: "hubspot",
      timeoutMs: 1000,
      fetch: async () => {
        called = true;
        return Response.json({});
      },
      gate: {
        take: () => Promise.reject(new VendorHeldError("hubspot: held by the rate governor", 7)),
        pause: async () => {},
      },
    };
    await expect(crmFetch(call, request())).rejects.toMatchObject({ retryAfterSeconds: 7 });
    expect(called).toBe(false);
  });
});
