import { describe, expect, it } from "vitest";
import type { BatchList } from "../../src/account/views";
import { createKey, expectProblem, person, request, submitBatch, until } from "../helpers";

const list = async (key: string, query = "", environment = "test") => {
  const response = await request(`/v2/${environment}/person/contact-info${query}`, { key });
  if (response.status !== 200) throw new Error(`list answered ${response.status}: ${await response.text()}`);
  return response.json<BatchList>();
};

const ids = (page: BatchList) => page.batches.map((batch) => batch.id);

describe("GET /v2/{environment}/person/contact-info", () => {
  it("lists a batch within 2 s of its 202, with its counters", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person(), { bad: 1 }] });
    // The contract's 2 s (README) is the polling bound: no time is measured and compared.
    const page = await until(() => list(key), {
      what: `batch ${batchId} listed`,
      done: (p) => ids(p).includes(batchId),
      timeoutMs: 2_000,
    });
    expect(page.batches[0]).toEqual({
      id: batchId,
      status: expect.stringMatching(/^(processing|completed)$/),
      totalItems: 2,
      completedItems: expect.any(Number),
      failedItems: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      completedAt: page.batches[0]!.status === "completed" ? expect.any(String) : null,
      creditsCharged: expect.any(Number),
      creditsRefunded: 0,
      maxCredits: null,
    });
    expect(page.nextCursor).toBeNull();
  });

  it("lists newest first, a page of `limit` at a time, only the caller's customer and environment", async () => {
    const customerId = `cus_${crypto.randomUUID()}`;
    const { key } = await createKey({ customerId });
    const sameCustomerOtherKey = await createKey({ customerId });
    const live = await createKey({ customerId, environment: "live" });
    const other = await createKey();
    const mine: string[] = [];
    for (let i = 0; i < 5; i++)
      mine.push(await submitBatch(i % 2 ? key : sameCustomerOtherKey.key, { items: [person({ firstName: `N${i}` })] }));
    const theirs = await submitBatch(other.key, { items: [person()] });
    const liveBatch = await submitBatch(live.key, { items: [{ bad: 1 }] }, "live");
    await until(() => list(key, "?limit=100"), {
      what: "all five listed",
      done: (p) => p.batches.length === 5,
      timeoutMs: 5_000,
    });
    await until(() => list(other.key), {
      what: "the other customer's batch listed",
      done: (p) => ids(p).includes(theirs),
    });

    const all = await list(key, "?limit=100");
    const expected = [...all.batches]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
      .map((b) => b.id);
    expect(ids(all)).toEqual(expected);
    expect(new Set(ids(all))).toEqual(new Set(mine));
    // Submitted one after another, so newest first is the reverse of submission order.
    expect(ids(all)).toEqual([...mine].reverse());

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: BatchList = await list(key, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      pages.push(ids(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);

    expect(ids(await list(other.key))).toEqual([theirs]);
    await until(() => list(live.key, "", "live"), {
      what: "the live batch listed",
      done: (p) => ids(p).includes(liveBatch),
    });
    expect(ids(await list(live.key, "", "live"))).toEqual([liveBatch]);
  });

  it("does not list a deleted batch, as soon as the delete answered", async () => {
    const { key } = await createKey();
    const kept = await submitBatch(key, { items: [person()] });
    const deleted = await submitBatch(key, { items: [person({ firstName: "B" })] });
    await until(() => list(key), { what: "both listed", done: (p) => p.batches.length === 2 });
    expect((await request(`/v2/test/person/contact-info/${deleted}`, { method: "DELETE", key })).status).toBe(204);
    expect(ids(await list(key))).toEqual([kept]);
  });

  it.each(["?limit=0", "?limit=101", "?limit=x", "?cursor=bogus", "?page=2"])(
    "refuses %s with 400 invalid_query",
    async (query) => {
      const { key } = await createKey();
      await expectProblem(await request(`/v2/test/person/contact-info${query}`, { key }), 400, "invalid_query");
    },
  );
});
