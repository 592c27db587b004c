// The Durable Object round trips on the submit's and the status read's critical paths
// (docs/architecture.md, "Durable Object round trips per route"), counted on the real
// Worker and real objects: the Worker's fetch handler is called with the platform's own
// bindings, each Durable Object namespace seen through a proxy that records every RPC call
// its stubs make (when it started, when it settled). Nothing in src/ knows it is counted.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import entry from "../../src/index";
import { createKey, createStoredBatch, deliver, envWith, getStatus, person, waitForCompletion } from "../helpers";

interface Call {
  object: string;
  method: string;
  started: number;
  settled: number | null;
}

const NAMESPACES = {
  RATE_LIMITER: "limiter",
  BATCHES: "batch",
  ACCOUNTS: "account",
} as const;

/** The bindings, with every RPC call to the three request-path objects recorded in `calls`, in a shared order. */
function countingEnv() {
  const calls: Call[] = [];
  let tick = 0;
  const stubOf = (object: string, stub: object) =>
    new Proxy(stub, {
      get(target, method) {
        const value = Reflect.get(target, method);
        if (typeof value !== "function" || typeof method !== "string" || method === "then") return value;
        return (...args: unknown[]) => {
          const call: Call = { object, method, started: tick++, settled: null };
          calls.push(call);
          return Promise.resolve(Reflect.apply(value, target, args)).finally(() => {
            call.settled = tick++;
          });
        };
      },
    });
  const namespaceOf = (object: string, namespace: DurableObjectNamespace) =>
    new Proxy(namespace, {
      get(target, name) {
        const value = Reflect.get(target, name);
        if (typeof value !== "function") return value;
        if (name === "get" || name === "getByName")
          return (...args: unknown[]) => stubOf(object, Reflect.apply(value, target, args));
        return value.bind(target);
      },
    });
  const overrides = Object.fromEntries(
    Object.entries(NAMESPACES).map(([binding, object]) => [
      binding,
      namespaceOf(object, Reflect.get(env, binding) as DurableObjectNamespace),
    ]),
  );
  return { env: envWith(overrides), calls };
}

async function call(path: string, init: RequestInit) {
  const counted = countingEnv();
  const ctx = createExecutionContext();
  const response = await entry.fetch!(new Request(`https://api.test${path}`, init) as never, counted.env, ctx);
  await waitOnExecutionContext(ctx);
  return { response, calls: counted.calls };
}

describe("Durable Object round trips on the critical path", () => {
  it("submit: the limiter, the account's reservation, then the batch (one call each; the usage is told after the answer, by the batch)", async () => {
    const { key } = await createKey();
    const { response, calls } = await call("/v2/test/person/contact-info", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ items: [person(), person({ firstName: "Other" })] }),
    });
    expect(response.status).toBe(202);
    // The reservation against the month's budget (issue 50) is the one account call: exact only in one object.
    expect(calls.map((c) => `${c.object}.${c.method}`)).toEqual(["limiter.admit", "account.reserve", "batch.create"]);
    const [limiter, reserve, batch] = calls as [Call, Call, Call];
    // In sequence: a write is counted before it does any work, and reserved before the batch exists.
    expect(limiter.settled).toBeLessThan(reserve.started);
    expect(reserve.settled).toBeLessThan(batch.started);
    await waitForCompletion(key, ((await response.json()) as { batchId: string }).batchId);
  });

  it("submit with an Idempotency-Key: the limiter (counting and beginning the key in one call), the batch, the record completed", async () => {
    const { key } = await createKey();
    const { response, calls } = await call("/v2/test/person/contact-info", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify({ items: [person()] }),
    });
    expect(response.status).toBe(202);
    expect(calls.map((c) => `${c.object}.${c.method}`)).toEqual([
      "limiter.admit",
      "account.reserve",
      "batch.create",
      "limiter.completeKey",
    ]);
    const [admit, , create, complete] = calls as [Call, Call, Call, Call];
    expect(admit.settled).toBeLessThan(create.started);
    expect(create.settled).toBeLessThan(complete.started);
    await waitForCompletion(key, ((await response.json()) as { batchId: string }).batchId);
  });

  it("status: the limiter and the batch, in parallel (one round trip long)", async () => {
    const { key } = await createKey();
    const submitted = await call("/v2/test/person/contact-info", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ items: [person()] }),
    });
    const { batchId } = (await submitted.response.json()) as { batchId: string };
    await waitForCompletion(key, batchId);
    const { response, calls } = await call(`/v2/test/person/contact-info/${batchId}`, {
      headers: { "x-api-key": key },
    });
    expect(response.status).toBe(200);
    expect(calls.map((c) => `${c.object}.${c.method}`)).toEqual(["limiter.admit", "batch.status"]);
    const [limiter, batch] = calls as [Call, Call];
    // The batch is asked before the limiter has answered.
    expect(batch.started).toBeLessThan(limiter.settled!);
  });

  describe("a queue delivery of one batch's messages", () => {
    const people = [person(), person({ firstName: "B" }), person({ firstName: "C" })];
    /** A batch whose messages the test delivers, as the fan-out sends them (naming their customer). */
    const storedBatch = async () => {
      const { key, record, id, messages } = await createStoredBatch(people);
      return { key, id, messages: messages.map((message) => ({ ...message, customerId: record.customerId })) };
    };

    it("the first: one call to the batch (record), beside the account's do-not-enrich check; no stillPending", async () => {
      const { key, id, messages } = await storedBatch();
      const counted = countingEnv();
      const result = await deliver("contact-info-items", messages, 1, counted.env);
      expect(result.explicitAcks).toHaveLength(3);
      expect(counted.calls.map((c) => `${c.object}.${c.method}`).sort()).toEqual([
        "account.screenGroup",
        "batch.record",
      ]);
      expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 3 });
    });

    it("a redelivery: the pending check first (its finished items dropped unprocessed), then record", async () => {
      const { key, id, messages } = await storedBatch();
      await deliver("contact-info-items", messages.slice(0, 2));
      const counted = countingEnv();
      const result = await deliver("contact-info-items", messages, 2, counted.env);
      expect(result.explicitAcks).toHaveLength(3);
      expect(counted.calls.map((c) => `${c.object}.${c.method}`).sort()).toEqual([
        "account.screenGroup",
        "batch.record",
        "batch.stillPending",
      ]);
      expect(await getStatus(key, id)).toMatchObject({ status: "completed", completedItems: 3 });
    });

    it("a first delivery of items already finished (a re-drive's copy): recorded once, charged once, acked", async () => {
      const { key, id, messages } = await storedBatch();
      await deliver("contact-info-items", messages);
      const before = await getStatus(key, id);
      const counted = countingEnv();
      const result = await deliver("contact-info-items", messages, 1, counted.env);
      expect(result.explicitAcks).toHaveLength(3);
      expect(result.retryMessages).toEqual([]);
      expect(counted.calls.map((c) => `${c.object}.${c.method}`)).toContain("batch.record");
      const after = await getStatus(key, id);
      expect(after).toMatchObject({ completedItems: 3, creditsCharged: before.creditsCharged });
      expect(after.items).toEqual(before.items);
    });
  });
});
