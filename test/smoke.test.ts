import { describe, expect, it } from "vitest";
import { createKey, person, submitBatch, waitForCompletion, request } from "./helpers";

describe("smoke", () => {
  it("healthz", async () => {
    const r = await request("/healthz");
    expect(r.status).toBe(200);
  });
  it("runs a batch end to end", async () => {
    const { key } = await createKey();
    const id = await submitBatch(key, { items: [person(), person({ companyDomain: "notfound.test" }), person({ companyDomain: "flaky.test" }), person({ companyDomain: "fail.test" }), { bogus: 1 }] });
    const s = await waitForCompletion(key, id);
    console.log(JSON.stringify(s, null, 1));
  });
});
