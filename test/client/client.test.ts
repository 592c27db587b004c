import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type BatchSummary, type Client, createClient, ProblemError } from "../../client/src/index";
import { clientTestServer, SLOW_LIMITS } from "./server";

// The typed client (client/) against a running Worker.
const running = clientTestServer();
let client: Client;
const sentKeys: (string | null)[] = [];

beforeAll(() => {
  client = createClient({
    baseUrl: running.server.url,
    apiKey: running.key,
    fetch: (input, init) => {
      sentKeys.push((input instanceof Request ? input.headers : new Headers(init?.headers)).get("x-api-key"));
      return fetch(input, init);
    },
  });
});

describe("submit, waitForBatch and items", () => {
  it("submits, reports progress until completed, and yields every item in order", async () => {
    const submitted = await client.submit(
      [
        { externalId: "crm-1", firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" },
        { linkedinUrl: "https://www.linkedin.com/in/grace-hopper" },
        { fullName: "No Body", companyDomain: "notfound.test" },
        { fullName: "Flaky Person", companyDomain: "flaky.test" },
        { firstName: "Only" },
      ],
      { fields: ["email", "phone"] },
    );
    expect(submitted).toMatchObject({
      itemCount: 5,
      replayed: false,
      location: `/v2/test/person/contact-info/${submitted.batchId}`,
    });

    const seen: BatchSummary[] = [];
    const done = await client.waitForBatch(submitted.batchId, {
      onProgress: (batch) => seen.push(batch),
      intervalMs: 200,
    });
    expect(done).toMatchObject({
      id: submitted.batchId,
      status: "completed",
      totalItems: 5,
      completedItems: 4,
      failedItems: 1,
    });
    expect(done).not.toHaveProperty("items");
    expect(seen.at(-1)).toEqual(done);

    const items = [];
    for await (const item of client.items(submitted.batchId)) items.push(item);
    expect(items.map((item) => [item.index, item.status, item.outcome])).toEqual([
      [0, "completed", "found"],
      [1, "completed", "found"],
      [2, "completed", "not_found"],
      [3, "completed", "found"],
      [4, "failed", null],
    ]);
    expect(items[0]?.emails[0]?.address).toBe("ada.lovelace@analytical.example");

    const failed = [];
    for await (const item of client.items(submitted.batchId, { status: "failed" })) failed.push(item);
    expect(failed.map((item) => [item.index, item.error?.code])).toEqual([[4, "invalid_input"]]);
  });

  it("pages through a batch larger than one page", async () => {
    const people = Array.from({ length: 2_345 }, (_, i) => ({
      externalId: `row-${i}`,
      email: `person${i}@paging.example`,
    }));
    const { batchId } = await client.submit(people, { fields: ["email"] });
    await client.waitForBatch(batchId, { intervalMs: 200 });
    const indexes: number[] = [];
    for await (const item of client.items(batchId)) indexes.push(item.index);
    expect(indexes).toEqual(people.map((_, i) => i));
    const firstPage = await client.getBatch(batchId, { limit: 1000 });
    expect(firstPage.items).toHaveLength(1000);
    expect(firstPage.nextCursor).toEqual(expect.any(String));
  });

  it("replays a submit with the same Idempotency-Key", async () => {
    const items = [{ email: "alan@turing.example" }];
    const idempotencyKey = `client-test-${Date.now()}`;
    const first = await client.submit(items, { idempotencyKey });
    const again = await client.submit(items, { idempotencyKey });
    expect(again.batchId).toBe(first.batchId);
    expect([first.replayed, again.replayed]).toEqual([false, true]);
  });

  it("sends the key set at creation, once, on every request", () => {
    expect(sentKeys.length).toBeGreaterThan(5);
    expect(new Set(sentKeys)).toEqual(new Set([running.key]));
  });

  it("stops waiting when its signal aborts", async () => {
    const { batchId } = await client.submit([{ fullName: "Flaky Person", companyDomain: "flaky.test" }]);
    const controller = new AbortController();
    const waiting = client.waitForBatch(batchId, { signal: controller.signal, intervalMs: 5_000 });
    controller.abort(new Error("stopped by the test"));
    await expect(waiting).rejects.toThrow("stopped by the test");
  });
});

describe("errors as typed problems", () => {
  it("throws a ProblemError carrying the RFC 9457 body", async () => {
    const error = await client.getBatch("00000000-0000-4000-8000-000000000000").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    const { problem, status } = error as ProblemError;
    expect(status).toBe(404);
    expect(problem).toMatchObject({
      status: 404,
      code: "not_found",
      title: "Not Found",
      type: expect.stringContaining("not_found"),
    });
  });

  it("sends webhookEvents, and names webhookEvents without webhookUrl in an invalid_request", async () => {
    await expect(
      client.submit([{ email: "a@b.example" }], { webhookEvents: ["item.completed"] }),
    ).rejects.toMatchObject({
      problem: {
        status: 400,
        code: "invalid_request",
        errors: [{ path: "webhookEvents", message: "requires webhookUrl" }],
      },
    });
  });

  it("names an unknown key invalid_api_key", async () => {
    const stranger = createClient({ baseUrl: running.server.url, apiKey: "ck_test_unknownunknownunknownunknown1234" });
    await expect(stranger.submit([{ email: "a@b.example" }])).rejects.toMatchObject({
      problem: { status: 401, code: "invalid_api_key" },
    });
  });

  it("narrows on code to each problem's own members", () => {
    const problem = {} as ProblemError["problem"];
    if (problem.code === "rate_limited") expectTypeOf(problem.retryAfterSeconds).toEqualTypeOf<number>();
    if (problem.code === "too_many_items") expectTypeOf(problem.maxItems).toEqualTypeOf<number>();
    if (problem.code === "unexpected_response") expectTypeOf(problem.detail).toEqualTypeOf<string>();
    // @ts-expect-error a code the API never answers
    if (problem.code === "no_such_code") return;
  });
});

describe("rate limits", () => {
  it("waits out a 429 for as long as Retry-After says, then succeeds", async () => {
    const waits: { seconds: number; code: string }[] = [];
    const slow = createClient({
      baseUrl: running.server.url,
      apiKey: running.slowKey,
      onWait: ({ seconds, problem }) => waits.push({ seconds, code: problem.code }),
    });
    const started = Date.now();
    const first = await slow.submit([{ email: "one@limits.example" }]);
    const second = await slow.submit([{ email: "two@limits.example" }]);
    expect(second.batchId).not.toBe(first.batchId);
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits[0]).toMatchObject({ code: "rate_limited" });
    expect(waits[0]!.seconds).toBeGreaterThanOrEqual(1);
    expect(waits[0]!.seconds).toBeLessThanOrEqual(SLOW_LIMITS.contact_info_request.windowSeconds);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waits[0]!.seconds * 1000);
  });

  it("keeps polling under a small status limit until the batch completes", async () => {
    const slow = createClient({ baseUrl: running.server.url, apiKey: running.slowKey });
    const { batchId } = await slow.submit([{ fullName: "Flaky Person", companyDomain: "flaky.test" }]);
    const done = await slow.waitForBatch(batchId, { intervalMs: 100, stream: false });
    expect(done.status).toBe("completed");
    const items = [];
    for await (const item of slow.items(batchId)) items.push(item);
    expect(items).toHaveLength(1);
  });
});

describe("waitForBatch over the batch's event stream", () => {
  /** A client whose fetch goes through `wrap`, recording each request's path and Last-Event-ID. */
  function watchedClient(
    wrap: (request: Request, send: () => Promise<Response>) => Promise<Response> = (_, send) => send(),
  ) {
    const requests: { path: string; lastEventId: string | null }[] = [];
    const api = createClient({
      baseUrl: running.server.url,
      apiKey: running.key,
      fetch: (input, init) => {
        const request = new Request(input, init);
        requests.push({ path: new URL(request.url).pathname, lastEventId: request.headers.get("last-event-id") });
        return wrap(request, () => fetch(request));
      },
    });
    return { api, requests };
  }
  const people = [
    { fullName: "Flaky Person", companyDomain: "flaky.test" },
    { firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" },
    { firstName: "Only" },
  ];

  it("follows the stream to completed, without polling", async () => {
    const { api, requests } = watchedClient();
    const { batchId } = await api.submit(people);
    const seen: BatchSummary[] = [];
    const done = await api.waitForBatch(batchId, { onProgress: (batch) => seen.push(batch) });
    expect(done).toMatchObject({ id: batchId, status: "completed", totalItems: 3, completedItems: 2, failedItems: 1 });
    expect(seen.at(-1)).toEqual(done);
    expect(requests.slice(1).map((request) => request.path)).toEqual([
      `/v2/test/person/contact-info/${batchId}/events`,
    ]);
  });

  it("reopens a stream that drops with Last-Event-ID, and still ends at completed", async () => {
    let cut = false;
    const { api, requests } = watchedClient(async (request, send) => {
      const response = await send();
      if (cut || !request.url.endsWith("/events")) return response;
      cut = true;
      // The first stream carries its first event, then the connection drops.
      const text = await response.text().catch(() => "");
      return new Response(text.slice(0, text.indexOf("\n\n") + 2), { headers: response.headers });
    });
    const { batchId } = await api.submit(people);
    const done = await api.waitForBatch(batchId);
    expect(done).toMatchObject({ status: "completed", totalItems: 3 });
    const streams = requests.filter((request) => request.path.endsWith("/events"));
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams[0]!.lastEventId).toBeNull();
    expect(streams[1]!.lastEventId).toMatch(/^[0-9]+$/);
  });

  it("polls when the stream cannot be opened", async () => {
    const { api, requests } = watchedClient((request, send) =>
      request.url.endsWith("/events") ? Promise.resolve(new Response("Bad gateway", { status: 502 })) : send(),
    );
    const { batchId } = await api.submit(people);
    const done = await api.waitForBatch(batchId, { intervalMs: 200 });
    expect(done).toMatchObject({ status: "completed", totalItems: 3 });
    expect(
      requests.filter((request) => request.path === `/v2/test/person/contact-info/${batchId}`).length,
    ).toBeGreaterThan(0);
  });
});
