import { describe, expect, it } from "vitest";
import { createKey, expectProblem, getStatus, person, readPages, request, submit } from "../helpers";

describe("POST /v2/{environment}/person/contact-info", () => {
  it("accepts a batch with 202, a Location and a receipt", async () => {
    const { key } = await createKey();
    const response = await submit(key, { items: [person(), person({ firstName: "Grace" })] });
    expect(response.status).toBe(202);
    const body = await response.json<{ batchId: string; itemCount: number; message: string }>();
    expect(body.batchId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.itemCount).toBe(2);
    expect(body.message).toContain("2 queued");
    expect(response.headers.get("location")).toBe(`/v2/test/person/contact-info/${body.batchId}`);
  });

  it("accepts invalid items as failed items without rejecting the batch", async () => {
    const { key } = await createKey();
    const response = await submit(key, { items: [person(), 7, { email: "nope" }, { firstName: "Solo" }] });
    expect(response.status).toBe(202);
    const { batchId, itemCount, message } = await response.json<{
      batchId: string;
      itemCount: number;
      message: string;
    }>();
    expect(itemCount).toBe(4);
    expect(message).toContain("3 failed validation");
    const status = await getStatus(key, batchId);
    // The valid item may already be processed; the three invalid ones are failed at submission.
    expect(status.failedItems).toBe(3);
    expect(status.items.slice(1).map((item) => [item.status, item.error?.code])).toEqual([
      ["failed", "invalid_input"],
      ["failed", "invalid_input"],
      ["failed", "invalid_input"],
    ]);
    expect(status.items[2]!.error!.message).toContain("email");
    expect(status.items[0]!.error).toBeNull();
  });

  it("counts as queued only the distinct people it enqueues, and says how many were merged as duplicates", async () => {
    const { key } = await createKey();
    // Ada three times (case and spacing do not make another person), Grace once, one invalid item.
    const items = [
      person(),
      person({ firstName: " ADA " }),
      person(),
      person({ firstName: "Grace" }),
      { firstName: "Solo" },
    ];
    const response = await submit(key, { items });
    expect(response.status).toBe(202);
    const { itemCount, message } = await response.json<{ itemCount: number; message: string }>();
    expect(itemCount).toBe(5);
    expect(message).toBe(
      "Accepted 5 item(s); 2 queued for processing, 2 merged as duplicates of an earlier item, 1 failed validation (see each item's error). Poll the Location URL for results.",
    );
  });

  it("completes at once a batch whose every item is invalid", async () => {
    const { key } = await createKey();
    const response = await submit(key, { items: [{}, { firstName: "A" }] });
    const { batchId } = await response.json<{ batchId: string }>();
    const status = await getStatus(key, batchId);
    expect(status).toMatchObject({ status: "completed", totalItems: 2, completedItems: 0, failedItems: 2 });
    // Complete at birth: completed the moment it was created.
    expect(status.completedAt).toBe(status.createdAt);
  });

  it("refuses a body that is not JSON with 400 malformed_json", async () => {
    const { key } = await createKey();
    await expectProblem(await submit(key, "{items:"), 400, "malformed_json");
  });

  it.each([
    // A body that is not an object has no field to point at.
    ["not an object", [1], undefined],
    ["missing items", {}, [{ path: "items", message: "must be an array of items" }]],
    ["items not an array", { items: {} }, [{ path: "items", message: "must be an array of items" }]],
    ["empty items", { items: [] }, [{ path: "items", message: "must hold at least one item" }]],
    [
      "an unknown top-level field",
      { items: [{ email: "a@b.example" }], callback: "x" },
      [{ path: "callback", message: "unknown field 'callback'" }],
    ],
  ])("refuses a body with %s with 400 invalid_request naming the field", async (_, body, errors) => {
    const { key } = await createKey();
    const problem = await expectProblem(await submit(key, body), 400, "invalid_request");
    expect(problem.errors).toEqual(errors);
  });

  it("refuses more than MAX_BATCH_ITEMS items with 413 too_many_items", async () => {
    const { key } = await createKey();
    const items = Array.from({ length: 10_001 }, () => ({ email: "a@b.example" }));
    await expectProblem(await submit(key, { items }), 413, "too_many_items");
  });

  it("refuses a body over MAX_BODY_BYTES with 413 payload_too_large", async () => {
    const { key } = await createKey();
    const big = JSON.stringify({ items: [{ fullName: "x".repeat(11 * 1024 * 1024) }] });
    await expectProblem(await submit(key, big), 413, "payload_too_large");
  });

  it.each([undefined, "text/plain", "application/x-www-form-urlencoded"])(
    "refuses content type %j with 415",
    async (contentType) => {
      const { key } = await createKey();
      const headers: Record<string, string> = contentType ? { "content-type": contentType } : {};
      const response = await request("/v2/test/person/contact-info", {
        method: "POST",
        key,
        headers,
        body: JSON.stringify({ items: [person()] }),
      });
      await expectProblem(response, 415, "unsupported_media_type");
    },
  );

  it("accepts application/json with a charset", async () => {
    const { key } = await createKey();
    const response = await request("/v2/test/person/contact-info", {
      method: "POST",
      key,
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ items: [person()] }),
    });
    expect(response.status).toBe(202);
  });

  it("accepts MAX_BATCH_ITEMS (10,000) items and keeps every one, in order", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
    // One person 10,000 times: the whole batch is validated and stored item by
    // item, but only its first item is enqueued, so the test does not spend
    // seconds draining a queue it never reads (timing belongs to the benchmarks).
    const items = Array.from({ length: 10_000 }, (_, i) => person({ externalId: `row-${i}` }));
    const response = await submit(key, { items });
    expect(response.status).toBe(202);
    const { batchId, itemCount, message } = await response.json<{
      batchId: string;
      itemCount: number;
      message: string;
    }>();
    expect(itemCount).toBe(10_000);
    expect(message).toContain("1 queued for processing, 9999 merged as duplicates");
    const pages = await readPages(key, batchId, { limit: 1000 });
    expect(pages).toHaveLength(10);
    expect(pages.every((page) => page.totalItems === 10_000)).toBe(true);
    const kept = pages.flatMap((page) => page.items.map((item) => [item.index, item.externalId, item.input.firstName]));
    expect(kept).toEqual(items.map((_, i) => [i, `row-${i}`, "Ada"]));
  });
});
