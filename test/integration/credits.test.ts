import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BatchList } from "../../src/account/views";
import { batchStub } from "../../src/batch/stub";
import type { ItemOutcome, NewBatch } from "../../src/contact-info/batch-contract";
import { normalizePerson, personKey } from "../../src/contact-info/person";
import type { Estimate } from "../../src/credits/estimate";
import { resultCacheKey } from "../../src/enrichment/result-cache";
import type { ItemMessage } from "../../src/queue-messages/item-message";
import {
  createKey,
  deliver,
  expectProblem,
  faultyItemQueue,
  getStatus,
  itemMessage,
  newBatch,
  person,
  readPages,
  request,
  submit,
  submitBatch,
  untilAtRest,
  untilOutboxReported,
  usageOf,
  waitForCompletion,
} from "../helpers";
import { keyedHash, validItem } from "../keyed-hash";

afterEach(() => {
  vi.restoreAllMocks();
});

const email = {
  address: "ada@analytical.example",
  type: "work",
  status: "valid",
  confidence: 95,
  source: "sandbox",
} as const;
const phone = { number: "+14155550132", type: "mobile", confidence: 80, source: "sandbox" } as const;

/** A batch stored in its object whose messages vanish, so only what the test records or delivers finishes its items. */
async function storedBatch(batch: NewBatch) {
  const queue = faultyItemQueue(async () => {});
  const stub = batchStub(env, batch.id);
  await stub.create(batch);
  await untilAtRest(stub);
  queue.mockRestore();
  return stub;
}

describe("what an item is charged", () => {
  it("charges only what a leader delivers: misses, failures, cached results, duplicates and invalid items cost 0, also when recorded again", async () => {
    const { key, record } = await createKey();
    const batch = newBatch(record.customerId, 6);
    batch.items[5] = {
      input: { firstName: "Solo" },
      externalId: null,
      error: { code: "invalid_input", message: "not enough" },
    };
    // Item 1 is a duplicate of item 0.
    batch.leaders = [null, 0, null, null, null, null];
    const stub = await storedBatch(batch);
    const outcomes: ItemOutcome[] = [
      { index: 0, status: "completed", outcome: "found", emails: [email], phones: [phone], sources: [] },
      { index: 2, status: "completed", outcome: "not_found", emails: [], phones: [], sources: [] },
      { index: 3, status: "failed", error: { code: "source_unavailable", message: "down" }, sources: [] },
      {
        index: 4,
        status: "completed",
        outcome: "found",
        emails: [email],
        phones: [phone],
        fromCache: true,
        sources: [],
      },
    ];
    await stub.record(outcomes);
    await stub.record(outcomes);

    const status = await getStatus(key, batch.id);
    expect(status.items.map(({ status: s, credits }) => [s, credits])).toEqual([
      ["completed", 11],
      ["completed", 0],
      ["completed", 0],
      ["failed", 0],
      ["completed", 0],
      ["failed", 0],
    ]);
    expect(status.items[1]!.emails).toEqual([email]);
    expect(status).toMatchObject({ status: "completed", creditsCharged: 11, maxCredits: null });
    await untilOutboxReported(batch.id);
    expect((await usageOf(key)).totals.credits).toBe(11);
  });
});

describe("maxCredits, the batch's cap", () => {
  it("with maxCredits = N and N + k single-email items recorded concurrently, charges exactly N and ends k budget_exhausted", async () => {
    const { key, record } = await createKey();
    const [n, k] = [150, 50];
    const batch: NewBatch = { ...newBatch(record.customerId, n + k), fields: ["email"], maxCredits: n };
    await storedBatch(batch);
    const message = (index: number): ItemMessage => ({
      ...itemMessage(batch.id, index, batch.items[index]!.input, record.customerId),
      fields: ["email"],
    });
    // 200 deliveries at once, each its own record(); then all of them again (a redelivery).
    await Promise.all(batch.items.map((_, index) => deliver("contact-info-items", [message(index)])));
    await Promise.all(batch.items.map((_, index) => deliver("contact-info-items", [message(index)])));

    const items = (await readPages(key, batch.id, { limit: 100 })).flatMap((page) => page.items);
    expect(items.filter((item) => item.status === "completed" && item.credits === 1)).toHaveLength(n);
    const exhausted = items.filter((item) => item.error?.code === "budget_exhausted");
    expect(exhausted).toHaveLength(k);
    expect(exhausted.every((item) => item.status === "failed" && item.credits === 0 && item.emails.length === 0)).toBe(
      true,
    );
    expect(await getStatus(key, batch.id)).toMatchObject({
      completedItems: n,
      failedItems: k,
      creditsCharged: n,
      maxCredits: n,
    });
    await untilOutboxReported(batch.id);
    expect((await usageOf(key)).totals).toMatchObject({ credits: n, failed: k });
  });

  it("keeps a result it held back out of the result cache, so a resubmit does not get it for free", async () => {
    const { record } = await createKey({ environment: "live" });
    const owner = { customerId: record.customerId, environment: "live" as const };
    const inputs = [person({ firstName: "Paid" }), person({ firstName: "Held" })];
    const batch: NewBatch = {
      ...newBatch(record.customerId, 2),
      environment: "live",
      maxCredits: 11,
      items: inputs.map((input) => validItem(owner, input)),
    };
    const stub = await storedBatch(batch);
    const cacheKeys = inputs.map((input) =>
      resultCacheKey(owner, batch.fields, keyedHash(owner.customerId, "live", personKey(normalizePerson(input)))),
    );
    const found = (index: number): ItemOutcome => ({
      index,
      status: "completed",
      outcome: "found",
      emails: [email],
      phones: [phone],
      cacheKey: cacheKeys[index]!,
      sources: [{ name: "directory", outcome: "found" }],
    });
    expect(await stub.record([found(0), found(1)])).toMatchObject({ recorded: 2 });
    const cached = await Promise.all(cacheKeys.map((cacheKey) => env.RESULT_CACHE.get(cacheKey)));
    expect(cached.map((entry) => entry !== null)).toEqual([true, false]);
  });

  it("is taken from the submit, shown on the status and the list, and refused unless a whole number >= 0", async () => {
    const { key } = await createKey();
    const items = [person(), person({ firstName: "Grace" }), person({ firstName: "Alan" })];
    const batchId = await submitBatch(key, { items, fields: ["email"], maxCredits: 2 });
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ creditsCharged: 2, maxCredits: 2, completedItems: 2, failedItems: 1 });
    expect(status.items.filter((item) => item.error?.code === "budget_exhausted")).toHaveLength(1);
    await untilOutboxReported(batchId);
    const list = await (await request("/v2/test/person/contact-info", { key })).json<BatchList>();
    expect(list.batches).toEqual([expect.objectContaining({ id: batchId, creditsCharged: 2, maxCredits: 2 })]);

    for (const maxCredits of [-1, 1.5, "10", null]) {
      const body = await expectProblem(await submit(key, { items, maxCredits }), 400, "invalid_request");
      expect(body.errors).toEqual([expect.objectContaining({ path: "maxCredits" })]);
    }
  });
});

const estimate = (key: string, body: unknown, environment = "test") =>
  request(`/v2/${environment}/person/contact-info/estimate`, {
    method: "POST",
    key,
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });

describe("POST /v2/{environment}/person/contact-info/estimate", () => {
  it("equals what a sandbox batch without misses then charges, counts invalid and duplicate items, and creates nothing", async () => {
    const { key } = await createKey();
    const body = {
      items: [person(), person({ firstName: "Grace" }), person(), { bad: 1 }, person({ firstName: "Alan" })],
      fields: ["email"],
    };
    const response = await estimate(key, body);
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-policy")).toContain('"contact_info_request"');
    const answer = await response.json<Estimate>();
    expect(answer).toEqual({
      itemCount: 5,
      validItems: 4,
      invalidItems: 1,
      duplicateItems: 1,
      cachedItems: 0,
      maxCredits: 3,
      remainingCredits: null,
    });
    const list = await (await request("/v2/test/person/contact-info", { key })).json<BatchList>();
    expect(list.batches).toEqual([]);

    const status = await waitForCompletion(key, await submitBatch(key, body));
    expect(status.creditsCharged).toBe(answer.maxCredits);
  });

  it("is at least what a sandbox batch with misses then charges", async () => {
    const { key } = await createKey();
    const body = { items: [person(), person({ firstName: "Grace" }), person({ companyDomain: "notfound.test" })] };
    const answer = await (await estimate(key, body)).json<Estimate>();
    expect(answer.maxCredits).toBe(3 * 11);
    const status = await waitForCompletion(key, await submitBatch(key, body));
    expect(status.creditsCharged).toBeLessThan(answer.maxCredits);
    expect(status.creditsCharged).toBeGreaterThanOrEqual(2);
  });

  it("in live, counts the leaders the customer's result cache answers, and charges nothing for them", async () => {
    const { key, record } = await createKey({ environment: "live" });
    const cached = person({ firstName: "Cached" });
    const cacheKey = resultCacheKey(
      { customerId: record.customerId, environment: "live" },
      ["email", "phone"],
      keyedHash(record.customerId, "live", personKey(normalizePerson(cached))),
    );
    await env.RESULT_CACHE.put(
      cacheKey,
      JSON.stringify({ emails: [email], phones: [], sources: [{ name: "directory", outcome: "found" }] }),
    );
    const response = await estimate(key, { items: [cached, cached, person({ firstName: "New" })] }, "live");
    expect(await response.json<Estimate>()).toEqual({
      itemCount: 3,
      validItems: 3,
      invalidItems: 0,
      duplicateItems: 1,
      cachedItems: 1,
      maxCredits: 11,
      remainingCredits: null,
    });
  });

  it("answers a body the submit would refuse with the submit's problem", async () => {
    const { key } = await createKey();
    await expectProblem(await estimate(key, { items: [] }), 400, "invalid_request");
    await expectProblem(await estimate(key, { items: [person()], maxCredits: -1 }), 400, "invalid_request");
    await expectProblem(
      await estimate(key, { items: Array.from({ length: 10_001 }, () => person()) }),
      413,
      "too_many_items",
    );
  });
});
