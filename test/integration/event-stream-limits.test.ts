import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  LEASE_EXPIRES_MS,
  LEASE_RENEW_MS,
  MAX_STREAMS_PER_BATCH,
  MAX_STREAMS_PER_CUSTOMER,
  STREAM_RETRY_AFTER_SECONDS,
} from "../../src/rate-limit/stream-leases";
import { limiterStub } from "../../src/rate-limit/stub";
import {
  createKey,
  createStoredBatch,
  deliver,
  expectProblem,
  person,
  request,
  setClockAhead,
  until,
} from "../helpers";

const ADMIN_TOKEN = "adm_testtoken"; // vitest.config.ts
const eventsPath = (batchId: string, query = "?items=true") => `/v2/test/person/contact-info/${batchId}/events${query}`;

/** An open stream: what it sent so far, whether it ended, and a way to leave it. */
async function openStream(key: string, batchId: string) {
  const response = await request(eventsPath(batchId), { key });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const stream = { text: "", ended: false, close: () => reader.cancel() };
  void (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) stream.text += chunk.value;
    stream.ended = true;
  })().catch(() => {
    stream.ended = true;
  });
  await until(() => stream.text.includes("event: progress"), { what: "the stream's first progress event" });
  return stream;
}

const revoke = (record: { keyId: string; customerId: string }) =>
  exports.default.fetch(
    new Request("https://api.test/admin/revocations", {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ keyId: record.keyId, customerId: record.customerId, environment: "test" }),
    }),
  );

async function usedStatusUnits(key: string): Promise<number> {
  const limits = await (await request("/v2/test/me/rate-limits", { key })).json<
    { endpointType: string; used: number }[]
  >();
  return limits.find((limit) => limit.endpointType === "contact_info_status")!.used;
}

describe("a revoked key's open event streams", () => {
  it("end within 2 s of the revocation, and carry no item event finished after it", async () => {
    const { key, record, id, messages } = await createStoredBatch([person(), person({ firstName: "B" })]);
    const stream = await openStream(key, id);
    expect((await revoke(record)).status).toBe(204);
    // The stream renews its place every LEASE_RENEW_MS; the renewal after the revocation ends it.
    await until(() => stream.ended, {
      what: "the stream ended after its key's revocation",
      timeoutMs: 2000,
      intervalMs: 20,
    });
    const sent = stream.text;
    await deliver("contact-info-items", messages);
    expect(sent).not.toContain("event: item");
    expect(stream.text).toBe(sent);
    await expectProblem(await request(eventsPath(id), { key }), 401, "invalid_api_key");
  });
});

describe("caps on open event streams", () => {
  it(`answers the ${MAX_STREAMS_PER_BATCH + 1}th stream on one batch 429 too_many_streams, and opens one again once one closes`, async () => {
    const { key, id } = await createStoredBatch([person()]);
    const open = [];
    for (let i = 0; i < MAX_STREAMS_PER_BATCH; i++) open.push(await openStream(key, id));
    const refused = await request(eventsPath(id), { key });
    expect(refused.headers.get("retry-after")).toBe(String(STREAM_RETRY_AFTER_SECONDS));
    const problem = await expectProblem(refused, 429, "too_many_streams");
    expect(problem).toMatchObject({
      scope: "batch",
      maxStreams: MAX_STREAMS_PER_BATCH,
      retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS,
    });
    await open[0]!.close();
    const again = await until(() => request(eventsPath(id), { key }), {
      what: "a stream opened",
      done: (r) => r.status === 200,
    });
    await again.body!.cancel();
    for (const stream of open.slice(1)) await stream.close();
  });

  it(`answers a customer's ${MAX_STREAMS_PER_CUSTOMER + 1}th stream 429 too_many_streams, whatever the batch; another customer is not affected`, async () => {
    const owner = await createKey();
    const { key } = owner;
    const batches = [];
    for (let i = 0; i < Math.ceil(MAX_STREAMS_PER_CUSTOMER / MAX_STREAMS_PER_BATCH) + 1; i++) {
      batches.push(await storedBatchOf(owner));
    }
    const open = [];
    for (let i = 0; i < MAX_STREAMS_PER_CUSTOMER; i++)
      open.push(await openStream(key, batches[Math.floor(i / MAX_STREAMS_PER_BATCH)]!));
    const problem = await expectProblem(await request(eventsPath(batches.at(-1)!), { key }), 429, "too_many_streams");
    expect(problem).toMatchObject({ scope: "customer", maxStreams: MAX_STREAMS_PER_CUSTOMER });
    const other = await createStoredBatch([person()]);
    await (await openStream(other.key, other.id)).close();
    for (const stream of open) await stream.close();
  });
});

describe("an open event stream and the customer's status budget", () => {
  it("holds one unit of contact_info_status while open, besides its opening request, and frees it when it ends", async () => {
    const { key, id } = await createStoredBatch([person()]);
    const before = await usedStatusUnits(key);
    const stream = await openStream(key, id);
    expect(await usedStatusUnits(key)).toBe(before + 2);
    await stream.close();
    await until(() => usedStatusUnits(key), { what: "the stream's unit freed", done: (used) => used === before + 1 });
  });

  it("refuses a status read (429 rate_limited) while open streams hold the rest of the budget", async () => {
    const owner = await createKey({ rateLimits: { contact_info_status: { limit: 3, windowSeconds: 60 } } });
    const { key } = owner;
    const id = await storedBatchOf(owner);
    const stream = await openStream(key, id); // 2 of 3: its request and its held unit
    await expectProblem(await request(eventsPath(id), { key }), 429, "rate_limited"); // its request is the 3rd
    await expectProblem(await request(`/v2/test/person/contact-info/${id}`, { key }), 429, "rate_limited");
    await stream.close();
  });
});

describe("a stream's lease", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`expires when not renewed for ${LEASE_EXPIRES_MS} ms, so a crashed isolate leaks no place`, async () => {
    const { record } = await createKey();
    const limiter = limiterStub(env, record);
    const limits = {
      contact_info_request: slow(),
      contact_info_status: slow(),
      rate_limits: slow(),
      mcp_protocol: slow(),
    };
    const batchId = crypto.randomUUID();
    const leases = [];
    for (let i = 0; i < MAX_STREAMS_PER_BATCH; i++)
      leases.push(await limiter.openStream(record.keyId, batchId, limits));
    expect(leases.every((lease) => lease.kind === "granted")).toBe(true);
    expect((await limiter.openStream(record.keyId, batchId, limits)).kind).toBe("refused");
    const renewed = leases[0]!.kind === "granted" ? leases[0]!.leaseId : "";
    setClockAhead(LEASE_EXPIRES_MS - LEASE_RENEW_MS);
    expect(await limiter.renewStream(renewed)).toBe("renewed");
    setClockAhead(LEASE_EXPIRES_MS);
    // The two not renewed have gone; the renewed one holds its place.
    expect((await limiter.openStream(record.keyId, batchId, limits)).kind).toBe("granted");
    expect((await limiter.openStream(record.keyId, batchId, limits)).kind).toBe("granted");
    expect((await limiter.openStream(record.keyId, batchId, limits)).kind).toBe("refused");
  });
});

const slow = () => ({ limit: 1000, windowSeconds: 60 });

/** A pending batch of this key's customer that processes nothing unless the test delivers it. */
const storedBatchOf = async (owner: Awaited<ReturnType<typeof createKey>>) =>
  (await createStoredBatch([person()], owner)).id;
