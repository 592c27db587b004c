import { describe, expect, it } from "vitest";
import * as z from "zod";
import { PermanentProviderError, TransientProviderError } from "../../src/enrichment/provider";
import { fetchJson, retryAfterSeconds, VendorAnswerError } from "../../src/enrichment/upstream";

const call = (respond: (request: Request, init?: RequestInit) => Promise<Response>, timeoutMs = 200) => ({
  provider: "vendor",
  timeoutMs,
  fetch: (input: Request | string | URL, init?: RequestInit) => respond(input as Request, init),
});
const request = () => new Request("https://vendor.example/x");
const anyJson = z.unknown();
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
        anyJson,
      ),
    ).toEqual({ ok: 1 });
  });

  it("returns null for a not-found status", async () => {
    expect(
      await fetchJson(
        call(async () => new Response("no", { status: 404 })),
        request(),
        anyJson,
        { notFound: [404] },
      ),
    ).toBeNull();
  });

  it("treats 429 as transient and keeps its Retry-After", async () => {
    const error = await failure(
      fetchJson(
        call(async () => new Response("", { status: 429, headers: { "retry-after": "12" } })),
        request(),
        anyJson,
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
        anyJson,
      ),
    ).rejects.toBeInstanceOf(TransientProviderError);
    await expect(
      fetchJson(
        call(async () => new Response("", { status: 403 })),
        request(),
        anyJson,
        { transient: [403] },
      ),
    ).rejects.toBeInstanceOf(TransientProviderError);
  });

  it("treats other 4xx as permanent", async () => {
    await expect(
      fetchJson(
        call(async () => new Response("", { status: 401 })),
        request(),
        anyJson,
      ),
    ).rejects.toBeInstanceOf(PermanentProviderError);
  });

  it("gives up after the timeout, as a transient failure", async () => {
    const hang = (_: Request, init?: RequestInit) =>
      new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    const error = await failure(fetchJson(call(hang, 50), request(), anyJson));
    expect(error).toBeInstanceOf(TransientProviderError);
    expect(error.message).toContain("no answer within 50 ms");
  });

  it("treats a network error as transient", async () => {
    await expect(
      fetchJson(
        call(async () => Promise.reject(new TypeError("connection reset"))),
        request(),
        anyJson,
      ),
    ).rejects.toBeInstanceOf(TransientProviderError);
  });

  it("treats malformed JSON as the vendor's passing fault", async () => {
    const error = await failure(
      fetchJson(
        call(async () => new Response("{oops")),
        request(),
        anyJson,
      ),
    );
    expect(error).toBeInstanceOf(VendorAnswerError);
    expect(error.message).toBe("vendor: upstream answered not JSON");
  });

  it("reads the retry time from a vendor's reset header when told to", async () => {
    const reset = new Date(Date.now() + 5_000).toISOString();
    const error = await failure(
      fetchJson(
        call(async () => new Response("", { status: 429, headers: { "x-ratelimit-reset": reset } })),
        request(),
        anyJson,
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

// A misbehaving vendor is said as one (issue 46, item 5): a 2xx that is not an answer is a
// VendorAnswerError (transient: the source is unavailable for this attempt, and the item retried),
// never a permanent error or a crash of ours.
describe("a 2xx that is not an answer", () => {
  const answer = z.object({ data: z.object({ email: z.string().nullish() }).nullish() });
  const trickle = (stopAfterMs: number) =>
    new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"data":'));
        const started = Date.now();
        // A byte now and then, for longer than the timeout: each byte arrives in time, the body never does.
        while (Date.now() - started < stopAfterMs) {
          await scheduler.wait(20);
          controller.enqueue(new TextEncoder().encode(" "));
        }
        controller.enqueue(new TextEncoder().encode("null}"));
        controller.close();
      },
    });

  it.each([
    [
      "an HTML page",
      () => new Response("<!doctype html><title>Maintenance</title>", { headers: { "content-type": "text/html" } }),
      "not JSON",
    ],
    ["an empty body", () => new Response(""), "not JSON"],
    ["JSON of another shape", () => Response.json({ data: { email: 42 } }), "an undocumented shape"],
    ["a JSON list", () => Response.json([{ email: "a@b.example" }]), "an undocumented shape"],
    ["JSON null", () => Response.json(null), "an undocumented shape"],
  ])("%s is a VendorAnswerError naming the vendor", async (_, respond, what) => {
    const error = await failure(
      fetchJson(
        call(async () => respond()),
        request(),
        answer,
      ),
    );
    expect(error).toBeInstanceOf(VendorAnswerError);
    expect(error).toBeInstanceOf(TransientProviderError);
    expect(error.message).toBe(`vendor: upstream answered ${what}`);
  });

  it("a body still trickling in at the timeout is one, whatever bytes keep coming", async () => {
    const error = await failure(
      fetchJson(
        call(async () => new Response(trickle(1_000)), 150),
        request(),
        answer,
      ),
    );
    expect(error).toBeInstanceOf(VendorAnswerError);
    expect(error.message).toBe("vendor: upstream answered a body not finished within 150 ms");
  });

  it("a body larger than any answer is one", async () => {
    const huge = `{"data":{"email":"${"a".repeat(1024 * 1024)}"}}`;
    const error = await failure(
      fetchJson(
        call(async () => new Response(huge)),
        request(),
        answer,
      ),
    );
    expect(error).toBeInstanceOf(VendorAnswerError);
  });

  it("an answer of the documented shape is returned, checked", async () => {
    expect(
      await fetchJson(
        call(async () => Response.json({ data: { email: "a@b.example", extra: 1 } })),
        request(),
        answer,
      ),
    ).toEqual({
      data: { email: "a@b.example" },
    });
  });
});
