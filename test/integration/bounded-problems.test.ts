import { describe, expect, it } from "vitest";
import { createKey, expectProblem, getStatus, person, request, submit, submitBatch } from "../helpers";

// An error answer is bounded whatever the body (issue 34, finding 4): a problem lists its
// first 20 errors and how many there were, and never echoes a list of unknown keys in full.

const MAX_LISTED_ERRORS = 20;
// Twenty errors with short paths and messages, and a bounded detail: far below this.
const MAX_PROBLEM_BYTES = 12_000;

const putSuppressions = (key: string, body: string) =>
  request("/v2/test/privacy/suppressions", {
    method: "PUT",
    key,
    headers: { "content-type": "application/json" },
    body,
  });

/** The problem, its size in bytes checked against the bound. */
async function boundedProblem(response: Response, status: number, code: string) {
  const text = await response.clone().text();
  expect(new TextEncoder().encode(text).length).toBeLessThan(MAX_PROBLEM_BYTES);
  return (await expectProblem(response, status, code)) as {
    detail: string;
    errors: { path: string; message: string }[];
    errorCount: number;
  };
}

const unknownKeys = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`unknown_key_${i}`, 1]));

describe("a problem answering a large bad body", () => {
  it("lists the first 20 of 1,000 bad suppression items, with their count", async () => {
    const { key } = await createKey();
    const items = Array.from({ length: 1_000 }, (_, i) => ({ email: `not an email ${i}`, companyDomain: "no domain" }));
    const problem = await boundedProblem(await putSuppressions(key, JSON.stringify({ items })), 400, "invalid_request");
    expect(problem.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(problem.errorCount).toBe(2_000);
    expect(problem.errors[0]).toEqual({
      path: "items.0.companyDomain",
      message: "must be a domain name such as example.com",
    });
    expect(problem.detail).toMatch(/\(and 1997 more\)\.$/);
  });

  it("names only the first few of 200,000 unknown keys", async () => {
    const { key } = await createKey();
    const body = JSON.stringify({ items: [{ email: "ada@analytical.example" }], ...unknownKeys(200_000) });
    expect(body.length).toBeGreaterThan(2_000_000);
    const problem = await boundedProblem(await putSuppressions(key, body), 400, "invalid_request");
    expect(problem.errorCount).toBe(1);
    expect(problem.errors).toEqual([
      {
        path: "unknown_key_0",
        message:
          "unknown field 'unknown_key_0', 'unknown_key_1', 'unknown_key_2', 'unknown_key_3', 'unknown_key_4' (and 199995 more)",
      },
    ]);
  });

  it("cuts a long unknown key", async () => {
    const { key } = await createKey();
    const long = "k".repeat(100_000);
    const problem = await boundedProblem(await submit(key, { items: [person()], [long]: 1 }), 400, "invalid_request");
    expect(problem.errors[0]?.path).toBe(`${"k".repeat(40)}…`);
  });

  it("bounds the submit's envelope problems and an item's stored error", async () => {
    const { key } = await createKey();
    await boundedProblem(await submit(key, { items: [person()], ...unknownKeys(50_000) }), 400, "invalid_request");
    const batchId = await submitBatch(key, { items: [{ ...person(), ...unknownKeys(50_000) }] });
    const { items } = await getStatus(key, batchId);
    expect(items[0]?.error?.message).toMatch(/^unknown field 'unknown_key_0', .* \(and 49995 more\)$/);
  });

  it("bounds a query's unknown parameters", async () => {
    const { key } = await createKey();
    const query = Array.from({ length: 300 }, (_, i) => `p${i}=1`).join("&");
    const problem = await boundedProblem(
      await request(`/v2/test/person/contact-info?${query}`, { key }),
      400,
      "invalid_query",
    );
    expect(problem.errors).toEqual([
      { path: "p0", message: "unknown query parameter 'p0', 'p1', 'p2', 'p3', 'p4' (and 295 more)" },
    ]);
  });
});
