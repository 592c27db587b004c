import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../src/base/config";
import type { Tenant } from "../../src/base/tenant";
import { batchStub } from "../../src/batch/stub";
import { DEFAULT_MAX_AGE_DAYS } from "../../src/batch/submission";
import { HOLD_MS, type StoredResponse } from "../../src/idempotency/record-policy";
import { requestFingerprint } from "../../src/middleware/idempotency";
import { effectiveSettings } from "../../src/rate-limit/endpoint-types";
import { limiterStub } from "../../src/rate-limit/stub";
import { createKey, expectProblem, getStatus, person, request } from "../helpers";
import { validItem } from "../keyed-hash";

const SUBMIT_PATH = "/v2/test/person/contact-info";

const submitWith = (
  key: string,
  idempotencyKey: string,
  body: unknown,
  options: { contentType?: string; query?: string } = {},
) =>
  request(`${SUBMIT_PATH}${options.query ?? ""}`, {
    method: "POST",
    key,
    headers: { "content-type": options.contentType ?? "application/json", "idempotency-key": idempotencyKey },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/** The fingerprint the middleware computes for `submitWith(key, …, body)`. */
const fingerprintOf = (body: unknown) =>
  requestFingerprint(
    { method: "POST", path: SUBMIT_PATH, query: "", contentType: "application/json" },
    new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer,
  );

/** Takes `key` for `fingerprint` as a submit does: on the customer's limiter, with the request's count. */
async function beginKey(tenant: Tenant, key: string, fingerprint: string) {
  const answer = await limiterStub(env, tenant).admit(
    "key_test",
    "contact_info_request",
    effectiveSettings(readConfig(env)),
    { idempotency: { key, fingerprint, ttlSeconds: 86_400, tenant } },
  );
  if (answer.revoked || answer.begun === undefined) throw new Error("the limiter began no key");
  return answer.begun;
}

const batchCount = async () => (await listDurableObjectIds(env.BATCHES)).length;

describe("Idempotency-Key on submit", () => {
  afterEach(() => vi.useRealTimers());

  it("replays the original 202 for the same key and body, creating nothing", async () => {
    const { key } = await createKey();
    const body = { items: [person()] };
    const first = await submitWith(key, "order-1", body);
    expect(first.status).toBe(202);
    const original = await first.json<{ batchId: string }>();
    const before = await batchCount();

    const again = await submitWith(key, "order-1", body);
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(original);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await batchCount()).toBe(before);
  });

  it("refuses the same key with a different body: 422 idempotency_key_reused", async () => {
    const { key } = await createKey();
    await submitWith(key, "order-2", { items: [person()] });
    await expectProblem(
      await submitWith(key, "order-2", { items: [person({ firstName: "Other" })] }),
      422,
      "idempotency_key_reused",
    );
  });

  it("lets concurrent duplicates create exactly one batch; the others wait (409) or replay it", async () => {
    const { key } = await createKey();
    const body = { items: Array.from({ length: 2000 }, (_, i) => person({ firstName: `C${i}` })) };
    const responses = await Promise.all(Array.from({ length: 5 }, () => submitWith(key, "burst", body)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 409)).toBe(true);
    const ids = new Set(
      await Promise.all(
        responses.filter((r) => r.status === 202).map(async (r) => (await r.json<{ batchId: string }>()).batchId),
      ),
    );
    expect(ids.size).toBe(1);
    for (const response of responses.filter((r) => r.status === 409)) {
      const problem = await expectProblem(response, 409, "idempotency_in_progress");
      expect(problem.detail).toContain("still being processed");
    }
  });

  it("answers 409 with a Retry-After of the seconds left in the first request's hold, then runs", async () => {
    const { key, record } = await createKey();
    const body = { items: [person()] };
    // The first request took the key at t0, a minute ago, and has not finished; the retry comes 44.5 s after it.
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now() - HOLD_MS;
    vi.setSystemTime(t0);
    const begun = await beginKey(record, "slow-one", await fingerprintOf(body));
    vi.setSystemTime(t0 + 44_500);
    const waiting = await submitWith(key, "slow-one", body);
    const problem = await expectProblem(waiting, 409, "idempotency_in_progress");
    expect(waiting.headers.get("retry-after")).toBe("16");
    expect(problem.retryAfterSeconds).toBe(16);
    // Back to the real clock, a minute after t0: the hold is over and the retry runs,
    // under the batch id the record named (and its batch's alarm is due now, not in the future).
    vi.useRealTimers();
    const retried = await submitWith(key, "slow-one", body);
    expect(retried.status).toBe(202);
    expect(begun.kind === "run" && (await retried.json<{ batchId: string }>()).batchId).toBe(
      begun.kind === "run" && begun.batchId,
    );
  });

  describe("after a crash", () => {
    it("between the batch commit and the 202: the retry answers the original 202 for the same batch, replayed", async () => {
      const { key, record } = await createKey();
      const body = { items: [person(), person({ firstName: "Grace" })] };
      // The clock stands still unless the test moves it; the batch's alarm (set at t0) still fires at once.
      vi.useFakeTimers({ toFake: ["Date"] });
      const t0 = Date.now();
      // What the first request did before its Worker died: took the key and created the batch; no answer was recorded.
      const begun = await beginKey(record, "crash-1", await fingerprintOf(body));
      if (begun.kind !== "run") throw new Error(`begin answered ${begun.kind}`);
      const batchId = begun.batchId;
      await batchStub(env, batchId).create({
        id: batchId,
        customerId: record.customerId,
        environment: "test",
        keyId: record.keyId,
        fields: ["email", "phone"],
        createdAt: new Date().toISOString(),
        statusUrl: `https://api.test${SUBMIT_PATH}/${batchId}`,
        items: body.items.map((input) => validItem(record, input)),
        leaders: [null, null],
        stagedItems: 0,
        maxAgeDays: DEFAULT_MAX_AGE_DAYS,
      });
      const batches = await batchCount();

      // Within the hold, the retry is told how long the first request may still run.
      vi.setSystemTime(t0 + 20_000);
      const early = await submitWith(key, "crash-1", body);
      await expectProblem(early, 409, "idempotency_in_progress");
      expect(early.headers.get("retry-after")).toBe("40");

      vi.setSystemTime(t0 + HOLD_MS);
      const retried = await submitWith(key, "crash-1", body);
      expect(retried.status).toBe(202);
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      expect(retried.headers.get("location")).toBe(`${SUBMIT_PATH}/${batchId}`);
      const receipt = await retried.json<{ batchId: string; itemCount: number; message: string }>();
      expect(receipt).toEqual({
        batchId,
        itemCount: 2,
        message: "Accepted 2 item(s); 2 queued for processing. Poll the Location URL for results.",
      });
      expect(await batchCount()).toBe(batches);

      // The answer is now recorded: later retries replay it from the store.
      const later = await submitWith(key, "crash-1", body);
      expect(later.headers.get("idempotent-replayed")).toBe("true");
      expect(await later.json()).toEqual(receipt);
      expect(await batchCount()).toBe(batches);
    });

    it("before the batch commit: the retry creates the batch under the id the record named", async () => {
      const { key, record } = await createKey();
      const body = { items: [person()] };
      // The first request took the key a minute ago and died before creating anything.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - HOLD_MS });
      const begun = await beginKey(record, "crash-2", await fingerprintOf(body));
      if (begun.kind !== "run") throw new Error(`begin answered ${begun.kind}`);
      vi.useRealTimers();

      const retried = await submitWith(key, "crash-2", body);
      expect(retried.status).toBe(202);
      // Not a replay: this is the first answer the request ever got.
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      expect((await retried.json<{ batchId: string }>()).batchId).toBe(begun.batchId);
    });
  });

  it("is shared by every API key of the customer in the environment", async () => {
    const a = await createKey();
    const b = await createKey({ customerId: a.record.customerId });
    const body = { items: [person()] };
    const first = await submitWith(a.key, "shared", body);
    const original = await first.json<{ batchId: string }>();
    const batches = await batchCount();

    const again = await submitWith(b.key, "shared", body);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(original);
    expect(await batchCount()).toBe(batches);
  });

  it("is not shared with another customer", async () => {
    const a = await createKey();
    const b = await createKey();
    const body = { items: [person()] };
    const first = await (await submitWith(a.key, "shared", body)).json<{ batchId: string }>();
    const other = await submitWith(b.key, "shared", body);
    expect(other.status).toBe(202);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    // A batch of b's own: b reads it, and a's stays a stranger's (404) to b.
    const { batchId } = await other.json<{ batchId: string }>();
    expect((await getStatus(b.key, batchId)).id).toBe(batchId);
    await expectProblem(
      await request(`/v2/test/person/contact-info/${first.batchId}`, { key: b.key }),
      404,
      "not_found",
    );
  });

  it("answers a retry sent as text/plain with 415, not a replay", async () => {
    const { key } = await createKey();
    const body = { items: [person()] };
    expect((await submitWith(key, "typed", body)).status).toBe(202);
    const retried = await submitWith(key, "typed", body, { contentType: "text/plain" });
    await expectProblem(retried, 415, "unsupported_media_type");
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
  });

  it("takes a different query string for a different request: 422, not a replay", async () => {
    const { key } = await createKey();
    const body = { items: [person()] };
    expect((await submitWith(key, "queried", body)).status).toBe(202);
    await expectProblem(
      await submitWith(key, "queried", body, { query: "?source=crm" }),
      422,
      "idempotency_key_reused",
    );
  });

  it("frees the key after a refused request, so a corrected retry runs", async () => {
    const { key } = await createKey();
    await expectProblem(await submitWith(key, "retry-me", { items: [] }), 400, "invalid_request");
    // The same key with the corrected body runs, rather than a 409 or a 422.
    expect((await submitWith(key, "retry-me", { items: [person()] })).status).toBe(202);
  });

  it.each([["x".repeat(256)], [""], ["has space"], ['quote"d']])(
    "refuses a malformed key %j with 400",
    async (idempotencyKey) => {
      const { key } = await createKey();
      await expectProblem(await submitWith(key, idempotencyKey, { items: [person()] }), 400, "invalid_idempotency_key");
    },
  );

  it("accepts a key of exactly 255 characters", async () => {
    const { key } = await createKey();
    expect((await submitWith(key, "k".repeat(255), { items: [person()] })).status).toBe(202);
  });
});

describe("the idempotency records, kept by the customer's limiter", () => {
  const t0 = 1_700_000_000_000;
  const at = (ms: number) => vi.setSystemTime(t0 + ms);
  /** A fresh customer's records: begin (with a count), and what the middleware does after the handler. */
  const store = () => {
    const tenant: Tenant = { customerId: `cus_${crypto.randomUUID()}`, environment: "test" };
    const limiter = limiterStub(env, tenant);
    return {
      begin: (key: string, fingerprint: string) => beginKey(tenant, key, fingerprint),
      complete: (key: string, fingerprint: string, response: StoredResponse) =>
        limiter.completeKey(key, fingerprint, response),
      abandon: (key: string, fingerprint: string) => limiter.abandonKey(key, fingerprint),
      release: (key: string, fingerprint: string) => limiter.releaseKey(key, fingerprint),
    };
  };

  afterEach(() => vi.useRealTimers());

  it("keeps a record for its TTL, then forgets it", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: t0 });
    const s = store();
    const first = await s.begin("k", "f");
    expect(first).toEqual({ kind: "run", batchId: expect.stringMatching(/^[0-9a-f-]{36}$/), resumed: false });
    await s.complete("k", "f", { status: 202, body: "{}", headers: {} });
    at(86_399_000);
    expect(await s.begin("k", "f")).toEqual({
      kind: "replay",
      response: { status: 202, body: "{}", headers: {} },
    });
    at(86_400_000);
    const after = await s.begin("k", "f");
    // Forgotten: a fresh run with a new batch id, not a resume of the old batch.
    expect(after).toEqual({ kind: "run", batchId: expect.stringMatching(/^[0-9a-f-]{36}$/), resumed: false });
    expect(after.kind === "run" && after.batchId).not.toBe(first.kind === "run" && first.batchId);
  });

  it("holds a key for HOLD_MS, then lets the retry resume the same batch", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: t0 });
    const s = store();
    const first = await s.begin("k", "f");
    at(30_000);
    expect(await s.begin("k", "f")).toEqual({ kind: "in_progress", retryAfterSeconds: 30 });
    at(HOLD_MS - 1);
    expect(await s.begin("k", "f")).toEqual({ kind: "in_progress", retryAfterSeconds: 1 });
    at(HOLD_MS);
    const resumed = await s.begin("k", "f");
    expect(resumed).toEqual({ kind: "run", batchId: first.kind === "run" && first.batchId, resumed: true });
    // The resumed request holds the key in turn.
    expect(await s.begin("k", "f")).toEqual({ kind: "in_progress", retryAfterSeconds: 60 });
  });

  it("after a server error keeps the batch id and ends the hold; after a refusal forgets the key", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: t0 });
    const s = store();
    const first = await s.begin("k", "f");
    await s.abandon("k", "f");
    expect(await s.begin("k", "f")).toEqual({
      kind: "run",
      batchId: first.kind === "run" && first.batchId,
      resumed: true,
    });
    expect(await s.begin("k", "other")).toEqual({ kind: "mismatch" });
    await s.release("k", "f");
    expect(await s.begin("k", "other")).toMatchObject({ kind: "run", resumed: false });
  });

  it("begins nothing for a request over the limit", async () => {
    const tenant: Tenant = { customerId: `cus_${crypto.randomUUID()}`, environment: "test" };
    const limits = effectiveSettings(readConfig(env), { contact_info_request: { limit: 1, windowSeconds: 60 } });
    const admit = (key: string) =>
      limiterStub(env, tenant).admit("key_test", "contact_info_request", limits, {
        idempotency: { key, fingerprint: "f", ttlSeconds: 86_400, tenant },
      });
    expect(await admit("first")).toMatchObject({ decision: { allowed: true }, begun: { kind: "run" } });
    const refused = await admit("second");
    expect(refused).toMatchObject({ decision: { allowed: false } });
    expect("begun" in refused).toBe(false);
  });
});
