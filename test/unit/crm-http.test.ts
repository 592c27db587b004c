import { describe, expect, it } from "vitest";
import {
  CrmBadAnswerError,
  type CrmCall,
  CrmRefusedError,
  CrmUnauthorizedError,
  CrmUnavailableError,
  crmFetch,
  readPages,
} from "../../src/crm/crm-http";
import { VendorHeldError } from "../../src/enrichment/call-gate";

// A CRM call's answers sorted: a 401 is the token, a 429 pauses the token's budget for the wait its
// headers name (Retry-After, else the CRM's declared waitHeader: HubSpot's
// X-HubSpot-RateLimit-Interval-Milliseconds), 5xx waits.

function callAnswering(response: Response) {
  const taken: string[] = [];
  const paused: number[] = [];
  const call: CrmCall = {
    provider: "hubspot",
    waitHeader: "x-hubspot-ratelimit-interval-milliseconds",
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
    const forbidden = Response.json({ category: "FORBIDDEN" }, { status: 403 });
    const refused = await crmFetch(callAnswering(forbidden).call, request()).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(CrmRefusedError);
    expect(refused).toMatchObject({ status: 403, missingScopes: false });
  });

  it("says a scope is missing only when the CRM says so (HubSpot MISSING_SCOPES, Salesforce INSUFFICIENT_ACCESS…)", async () => {
    for (const body of [
      { status: "error", category: "MISSING_SCOPES", message: "This app hasn't been granted all required scopes" },
      [{ errorCode: "INSUFFICIENT_ACCESS_OR_READONLY", message: "insufficient access rights on object id" }],
      [{ errorCode: "INSUFFICIENT_ACCESS", message: "insufficient access" }],
    ])
      await expect(crmFetch(callAnswering(Response.json(body, { status: 403 })).call, request())).rejects.toMatchObject(
        { status: 403, missingScopes: true },
      );
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

describe("a CRM's fault said as one (CrmBadAnswerError: a 502 with a retry time)", () => {
  it("an HTML page, or any body that is not JSON, with 200", async () => {
    const page = new Response("<!doctype html><p>Maintenance</p>", { headers: { "content-type": "text/html" } });
    const error = await crmFetch(callAnswering(page).call, request()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CrmBadAnswerError);
    expect(error).toMatchObject({ retryAfterSeconds: 10, message: expect.stringContaining("hubspot") });
  });

  it("a body not finished within the call's timeout, even while bytes keep trickling in", async () => {
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{"));
        timer = setInterval(() => controller.enqueue(new TextEncoder().encode(" ")), 20);
      },
      cancel() {
        clearInterval(timer);
        cancelled = true;
      },
    });
    const { call } = callAnswering(new Response(trickle));
    await expect(crmFetch({ ...call, timeoutMs: 200 }, request())).rejects.toBeInstanceOf(CrmBadAnswerError);
    expect(cancelled).toBe(true);
  });
});

describe("readPages: every paged read ends", () => {
  const call: CrmCall = { provider: "hubspot", timeoutMs: 1000, fetch: async () => Response.json({}) };
  const limits = { maxPages: 5, enough: 100 };

  it("at the CRM's last page, on an empty page, or once enough is read", async () => {
    const pages = new Map([
      [undefined, { items: [1, 2], next: "a" }],
      ["a", { items: [3], next: "b" }],
      ["b", { items: [] as number[], next: "c" }],
    ]);
    const asked: (string | undefined)[] = [];
    const read = (cursor: string | undefined) => {
      asked.push(cursor);
      return Promise.resolve(pages.get(cursor) ?? { items: [] });
    };
    expect(await readPages(call, limits, read)).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, "a", "b"]);
    expect(await readPages(call, { maxPages: 5, enough: 2 }, read)).toEqual([1, 2]);
  });

  it("a cursor given twice, or pages past the cap, are the CRM's fault", async () => {
    const same = () => Promise.resolve({ items: [1], next: "same" });
    await expect(readPages(call, limits, same)).rejects.toBeInstanceOf(CrmBadAnswerError);
    let n = 0;
    const endless = () => Promise.resolve({ items: [n], next: String(++n) });
    await expect(readPages(call, limits, endless)).rejects.toThrow(/more than 5 pages/);
    expect(n).toBe(5);
  });

  it("stops when the request that started it is gone", async () => {
    const gone = new AbortController();
    let n = 0;
    const read = () => {
      if (++n === 2) gone.abort(new Error("the client hung up"));
      return Promise.resolve({ items: [n], next: String(n) });
    };
    await expect(readPages({ ...call, signal: gone.signal }, limits, read)).rejects.toThrow("the client hung up");
    expect(n).toBe(2);
  });
});
