import { describe, expect, it } from "vitest";
import {
  createKey,
  expectProblem,
  getStatus,
  person,
  readPages,
  request,
  submitBatch,
  waitForCompletion,
} from "../helpers";

describe("GET /v2/{environment}/person/contact-info/{id}", () => {
  it("returns the batch with its items in submission order", async () => {
    const { key } = await createKey();
    const items = [
      person({ externalId: "a" }),
      { email: "grace@navy.example", externalId: "b" },
      person({ externalId: "c" }),
    ];
    const batchId = await submitBatch(key, { items });
    const status = await getStatus(key, batchId);
    expect(status).toMatchObject({ id: batchId, totalItems: 3, nextCursor: null });
    // Whatever the queue has done by now; the order and inputs below never change.
    expect(["pending", "processing", "completed"]).toContain(status.status);
    expect(status.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(status.items.map((item) => [item.index, item.externalId])).toEqual([
      [0, "a"],
      [1, "b"],
      [2, "c"],
    ]);
    expect(status.items[1]!.input).toEqual({ email: "grace@navy.example", externalId: "b" });
  });

  it("pages through items with limit and nextCursor", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, {
      items: Array.from({ length: 25 }, (_, i) => person({ externalId: `r${i}` })),
    });
    const pages = await readPages(key, batchId, { limit: 10 });
    expect(pages.map((page) => page.items.length)).toEqual([10, 10, 5]);
    const seen = pages.flatMap((page) => page.items.map((item) => item.externalId));
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `r${i}`));
  });

  it("returns no cursor when the last page is exactly full", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person(), person()] });
    expect((await getStatus(key, batchId, "?limit=2")).nextCursor).toBeNull();
  });

  it("filters items by status, with the same pagination", async () => {
    const { key } = await createKey();
    const items = [
      person(),
      { bad: 1 },
      person({ firstName: "B" }),
      {},
      person({ companyDomain: "fail.test" }),
      { firstName: "x" },
    ];
    const batchId = await submitBatch(key, { items });
    await waitForCompletion(key, batchId);
    const pages = await readPages(key, batchId, { limit: 2, status: "failed" });
    expect(pages.map((page) => page.items.map((item) => [item.index, item.status]))).toEqual([
      [
        [1, "failed"],
        [3, "failed"],
      ],
      [
        [4, "failed"],
        [5, "failed"],
      ],
    ]);
    expect(pages.map((page) => page.totalItems)).toEqual([6, 6]);
    expect((await getStatus(key, batchId, "?status=completed")).items.map((item) => item.index)).toEqual([0, 2]);
    expect((await getStatus(key, batchId, "?status=pending")).items).toEqual([]);
  });

  it.each(["?limit=0", "?limit=1001", "?limit=abc", "?limit=1.5", "?cursor=bogus", "?page=2", "?status=done"])(
    "refuses %s with 400 invalid_query",
    async (query) => {
      const { key } = await createKey();
      const batchId = await submitBatch(key, { items: [person()] });
      await expectProblem(
        await request(`/v2/test/person/contact-info/${batchId}${query}`, { key }),
        400,
        "invalid_query",
      );
    },
  );

  it.each([crypto.randomUUID(), "not-a-uuid", "1234"])("answers 404 for an unknown or malformed id %s", async (id) => {
    const { key } = await createKey();
    await expectProblem(await request(`/v2/test/person/contact-info/${id}`, { key }), 404, "not_found");
  });

  it("answers 404 for another customer's batch, exactly as for a missing one", async () => {
    const owner = await createKey();
    const other = await createKey();
    const batchId = await submitBatch(owner.key, { items: [person()] });
    const response = await request(`/v2/test/person/contact-info/${batchId}`, { key: other.key });
    const missing = await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key: other.key });
    const [a, b] = [await response.json<Record<string, unknown>>(), await missing.json<Record<string, unknown>>()];
    expect(response.status).toBe(404);
    expect({ ...a, requestId: "" }).toEqual({ ...b, requestId: "" });
  });

  it("answers 404 for the customer's own batch read through the other environment", async () => {
    const customerId = `cus_${crypto.randomUUID()}`;
    const test = await createKey({ customerId, environment: "test" });
    const live = await createKey({ customerId, environment: "live" });
    const batchId = await submitBatch(test.key, { items: [person()] });
    await expectProblem(await request(`/v2/live/person/contact-info/${batchId}`, { key: live.key }), 404, "not_found");
    expect((await request(`/v2/test/person/contact-info/${batchId}`, { key: test.key })).status).toBe(200);
  });

  it("lets another key of the same customer and environment read the batch", async () => {
    const customerId = `cus_${crypto.randomUUID()}`;
    const first = await createKey({ customerId });
    const second = await createKey({ customerId });
    const batchId = await submitBatch(first.key, { items: [person()] });
    expect((await getStatus(second.key, batchId)).id).toBe(batchId);
  });
});
