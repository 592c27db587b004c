import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/base/config";
import { createKey, person, submitBatch, waitForCompletion } from "../helpers";

describe("processing through the real local queue", () => {
  it("takes a test batch from submit to completed with sandbox contact data", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, {
      items: [
        person(),
        { linkedinUrl: "https://www.linkedin.com/in/grace-hopper-7b" },
        { email: "alan@turing.example" },
      ],
    });
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ status: "completed", totalItems: 3, completedItems: 3, failedItems: 0 });
    expect(Date.parse(status.completedAt!)).toBeGreaterThanOrEqual(Date.parse(status.createdAt));
    for (const item of status.items) {
      expect(item).toMatchObject({ status: "completed", outcome: "found", error: null });
      expect(item.emails[0]!.address).toMatch(/@[a-z0-9]+\.example$/);
    }
    expect(status.items[1]!.emails[0]!.address).toBe("grace.hopper@company.example");
    // The sandbox found them, and its verifier judged the emails.
    for (const item of status.items)
      expect(item.sources).toEqual([
        { name: "sandbox", outcome: "found" },
        { name: "sandbox", outcome: "found", kind: "verifier" },
      ]);
  });

  it("looks only for the requested fields", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person(), person({ firstName: "Bea" })], fields: ["email"] });
    const status = await waitForCompletion(key, batchId);
    for (const item of status.items) expect(item.phones).toEqual([]);
  });

  it("completes notfound.test items as not_found, not as failures", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person({ companyDomain: "notfound.test" })] });
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ completedItems: 1, failedItems: 0 });
    expect(status.items[0]).toMatchObject({
      status: "completed",
      outcome: "not_found",
      emails: [],
      phones: [],
      error: null,
    });
    expect(status.items[0]!.sources).toEqual([{ name: "sandbox", outcome: "not_found" }]);
  });

  it("never ends an unavailable.test item not_found: it fails with source_unavailable at its last attempt", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person({ companyDomain: "unavailable.test" }), person()] });
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ status: "completed", completedItems: 1, failedItems: 1 });
    expect(status.items[0]).toEqual({
      ...status.items[0],
      status: "failed",
      outcome: null,
      emails: [],
      phones: [],
      error: {
        code: "source_unavailable",
        // Settled by the consumer at its last attempt, not by the dead-letter queue or a timeout.
        message: `nothing was found, and sandbox could not answer (attempt ${readConfig(env).itemMaxAttempts}); resubmit the item later`,
      },
      sources: [{ name: "sandbox", outcome: "unavailable" }],
    });
  });

  it("reports no sources for an item that failed validation", async () => {
    const { key } = await createKey();
    const status = await waitForCompletion(key, await submitBatch(key, { items: [{ bad: true }, person()] }));
    expect(status.items.map((item) => [item.status, item.sources])).toEqual([
      ["failed", []],
      [
        "completed",
        [
          { name: "sandbox", outcome: "found" },
          { name: "sandbox", outcome: "found", kind: "verifier" },
        ],
      ],
    ]);
  });

  it("retries flaky.test once and then completes it", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person({ companyDomain: "flaky.test" })] });
    const status = await waitForCompletion(key, batchId);
    expect(status.items[0]).toMatchObject({ status: "completed", outcome: "found" });
  });

  it("fails fail.test with processing_failed once its retries run out, and still completes the batch", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person({ companyDomain: "fail.test" }), person()] });
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ status: "completed", completedItems: 1, failedItems: 1 });
    expect(status.items[0]).toMatchObject({ status: "failed", outcome: null, error: { code: "processing_failed" } });
  });

  it("ends a mixed batch with every item completed or failed and the counters summing to the total", async () => {
    const { key } = await createKey();
    const domains = ["a.example", "notfound.test", "flaky.test", "fail.test"];
    const items = Array.from({ length: 40 }, (_, i) =>
      i % 9 === 8 ? { bad: true } : person({ firstName: `P${i}`, companyDomain: domains[i % 4] }),
    );
    const status = await waitForCompletion(key, await submitBatch(key, { items }));
    expect(status.completedItems + status.failedItems).toBe(40);
    expect(status.items.every((item) => item.status === "completed" || item.status === "failed")).toBe(true);
    expect(status.items.filter((item) => item.status === "failed")).toHaveLength(status.failedItems);
  });
});
