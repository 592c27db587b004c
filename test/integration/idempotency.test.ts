import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { requestFingerprint } from "../../src/middleware/idempotency";
import { createKey, expectProblem, person, request } from "../helpers";

const submitWith = (key: string, idempotencyKey: string, body: unknown) =>
  request("/v2/test/person/contact-info", {
    method: "POST",
    key,
    headers: { "content-type": "application/json", "idempotency-key": idempotencyKey },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const batchCount = async () => (await listDurableObjectIds(env.BATCHES)).length;

describe("Idempotency-Key on submit", () => {
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
    await expectProblem(await submitWith(key, "order-2", { items: [person({ firstName: "Other" })] }), 422, "idempotency_key_reused");
  });

  it("lets concurrent duplicates create exactly one batch; the others wait (409) or replay it", async () => {
    const { key } = await createKey();
    const body = { items: Array.from({ length: 2000 }, (_, i) => person({ firstName: `C${i}` })) };
    const responses = await Promise.all(Array.from({ length: 5 }, () => submitWith(key, "burst", body)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 409)).toBe(true);
    const ids = new Set(await Promise.all(responses.filter((r) => r.status === 202).map(async (r) => (await r.json<{ batchId: string }>()).batchId)));
    expect(ids.size).toBe(1);
    for (const response of responses.filter((r) => r.status === 409)) {
      const problem = await expectProblem(response, 409, "idempotency_in_progress");
      expect(problem.detail).toContain("still being processed");
    }
  });

  it("answers 409 idempotency_in_progress while the first request holds the key", async () => {
    const { key, record } = await createKey();
    const body = JSON.stringify({ items: [person()] });
    // The first request has begun and not finished: exactly what the store holds mid-request.
    const print = await requestFingerprint("POST", "/v2/test/person/contact-info", new TextEncoder().encode(body).buffer as ArrayBuffer);
    await env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(record.keyId)).begin("slow-one", print, 86_400);
    const response = await submitWith(key, "slow-one", JSON.parse(body));
    await expectProblem(response, 409, "idempotency_in_progress");
    expect(response.headers.get("retry-after")).toBe("1");
  });

  it("is scoped to the API key", async () => {
    const a = await createKey();
    const b = await createKey();
    const body = { items: [person()] };
    const first = await (await submitWith(a.key, "shared", body)).json<{ batchId: string }>();
    const second = await (await submitWith(b.key, "shared", body)).json<{ batchId: string }>();
    expect(second.batchId).not.toBe(first.batchId);
  });

  it("frees the key after a failed request, so a corrected retry runs", async () => {
    const { key } = await createKey();
    expect((await submitWith(key, "retry-me", "{not json")).status).toBe(400);
    // The same key with the corrected body runs, rather than a 409 or a 422.
    expect((await submitWith(key, "retry-me", { items: [person()] })).status).toBe(202);
  });

  it.each([["x".repeat(256)], [""], ["has space"], ['quote"d']])("refuses a malformed key %j with 400", async (idempotencyKey) => {
    const { key } = await createKey();
    await expectProblem(await submitWith(key, idempotencyKey, { items: [person()] }), 400, "invalid_idempotency_key");
  });

  it("accepts a key of exactly 255 characters", async () => {
    const { key } = await createKey();
    expect((await submitWith(key, "k".repeat(255), { items: [person()] })).status).toBe(202);
  });
});

describe("the idempotency record store", () => {
  const store = () => env.IDEMPOTENCY.get(env.IDEMPOTENCY.newUniqueId());

  it("keeps a record for its TTL, then forgets it", async () => {
    const s = store();
    const t0 = 1_700_000_000_000;
    expect(await s.begin("k", "f", 86_400, t0)).toEqual({ kind: "new" });
    await s.complete("k", "f", { status: 202, body: "{}", headers: {} });
    expect((await s.begin("k", "f", 86_400, t0 + 86_399_000)).kind).toBe("replay");
    expect((await s.begin("k", "f", 86_400, t0 + 86_400_000)).kind).toBe("new");
  });

  it("releases a key whose request never finished after a minute", async () => {
    const s = store();
    const t0 = 1_700_000_000_000;
    await s.begin("k", "f", 86_400, t0);
    expect((await s.begin("k", "f", 86_400, t0 + 30_000)).kind).toBe("in_progress");
    expect((await s.begin("k", "f", 86_400, t0 + 61_000)).kind).toBe("new");
  });
});
