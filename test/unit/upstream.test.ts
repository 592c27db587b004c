import { describe, expect, it } from "vitest";
import { PermanentProviderError, TransientProviderError } from "../../src/enrichment/provider";
import { fetchJson, retryAfterSeconds } from "../../src/enrichment/upstream";

const call = (respond: (request: Request, init?: RequestInit) => Promise<Response>, timeoutMs = 200) => ({
  provider: "vendor",
  timeoutMs,
  fetch: (input: Request | string | URL, init?: RequestInit) => respond(input as Request, init),
});
const request = () => new Request("https://vendor.example/x");
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error as TransientProviderError,
  );

describe("calling an upstream", () => {
  it("returns the JSON body of a 2xx", async () => {
    expect(
      await fetchJson(
        call(async () => Response.json({ ok: 1 })),
        request(),
      ),
    ).toEqual({ ok: 1 });
  });

  it("returns null for a not-found status", async () => {
    expect(
      await fetchJson(
        call(async () => new Response("no", { status: 404 })),
        request(),
        { notFound: [404] },
      ),
    ).toBeNull();
  });

  it("treats 429 as transient and keeps its Retry-After", async () => {
    const error = await failure(
      fetchJson(
        call(async () => new Response("", { status: 429, headers: { "retry-after": "12" } })),
        request(),
      ),
    );
    expect(error).toBeInstanceOf(TransientProviderError);
    expect(error.retryAfterSeconds).toBe(12);
  });

  it("treats 5xx, and listed statuses, as transient", async () => {
    await expect(
      fetchJson(
        call(async () => new Response("", { status: 502 })),
        request(),
      ),
    ).rejects.toBeInstanceOf(TransientProviderError);
    await expect(
      fetchJson(
        call(async () => new Response("", { status: 403 })),
        request(),
        { transient: [403] },
      ),
    ).rejects.toBeInstanceOf(TransientProviderError);
  });

  it("treats other 4xx as permanent", async () => {
    await expect(
      fetchJson(
        call(async () => new Response("", { status: 401 })),
        request(),
      ),
    ).rejects.toBeInstanceOf(PermanentProviderError);
  });

  it("gives up after the timeout, as a transient failure", async () => {
    const hang = (_: Request, init?: RequestInit) =>
      new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    const error = await failure(fetchJson(call(hang, 50), request()));
    expect(error).toBeInstanceOf(TransientProviderError);
    expect(error.message).toContain("no answer within 50 ms");
  });

  it("treats a network error as transient", async () => {
    await expect(
      fetchJson(
        call(async () => Promise.reject(new TypeError("connection reset"))),
        request(),
      ),
    ).rejects.toBeInstanceOf(TransientProviderError);
  });

  it("treats malformed JSON as permanent", async () => {
    await expect(
      fetchJson(
        call(async () => new Response("{oops")),
        request(),
      ),
    ).rejects.toBeInstanceOf(PermanentProviderError);
  });

  it("reads the retry time from a vendor's reset header when told to", async () => {
    const reset = new Date(Date.now() + 5_000).toISOString();
    const error = await failure(
      fetchJson(
        call(async () => new Response("", { status: 429, headers: { "x-ratelimit-reset": reset } })),
        request(),
        {
          retryAfterHeaders: ["retry-after", "x-ratelimit-reset"],
        },
      ),
    );
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(4);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(5);
  });
});

describe("Retry-After", () => {
  it("reads seconds and HTTP dates", () => {
    expect(retryAfterSeconds("30")).toBe(30);
    expect(retryAfterSeconds(new Date(1_000_000 + 10_000).toUTCString(), 1_000_000)).toBe(10);
    expect(retryAfterSeconds("soon")).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});
