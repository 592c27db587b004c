import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Environment } from "../../../src/base/environment";
import { createKey, request, submitBatch, until, waitForCompletion } from "../../helpers";

// One identity rule (issue 34, findings 1 and 5): erasure and the do-not-enrich list reach a person by
// every name a finder could have asked with, however the name was composed; and what the account
// keeps of people are keyed hashes.

const post = (key: string, path: string, body: unknown, environment: Environment = "live") =>
  request(`/v2/${environment}${path}`, {
    method: "POST",
    key,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The customer's live result-cache keys. */
const cachedResults = async (customerId: string) =>
  (await env.RESULT_CACHE.list({ prefix: `result:live:${customerId}:` })).keys.map(({ name }) => name);

describe("an erasure", () => {
  it("by first + last name reaches an item that also carried another full name: its results and cache entries go", async () => {
    const { key, record } = await createKey({ environment: "live" });
    const domain = `identity-${crypto.randomUUID().slice(0, 8)}.example`;
    const item = { fullName: "Supp Other", firstName: "Supp", lastName: "Hunter", companyDomain: domain };
    const batchId = await submitBatch(key, { items: [item] }, "live");
    const before = await waitForCompletion(key, batchId);
    expect(before.items[0]).toMatchObject({ status: "completed", outcome: "found" });
    await until(() => cachedResults(record.customerId), {
      what: "the cached result",
      done: (keys) => keys.length === 1,
    });

    const receipt = await (
      await post(key, "/privacy/erasures", {
        firstName: "Supp",
        lastName: "Hunter",
        companyDomain: domain,
        suppress: false,
      })
    ).json();
    expect(receipt).toMatchObject({ items: 1, batches: 1 });
    expect((await waitForCompletion(key, batchId)).items[0]).toMatchObject({ input: {}, emails: [], phones: [] });
    expect(await cachedResults(record.customerId)).toEqual([]);
    // Asked again, the person is looked up afresh: nothing of them was left to serve.
    const again = await waitForCompletion(key, await submitBatch(key, { items: [item] }, "live"));
    expect(again.items[0]).toMatchObject({ fromCache: false });
  });

  it("by a name composed one way (NFC) reaches the item submitted composed the other (NFD)", async () => {
    const { key } = await createKey();
    const domain = `identity-${crypto.randomUUID().slice(0, 8)}.example`;
    const batchId = await submitBatch(key, {
      items: [{ fullName: "Zoë Ünal".normalize("NFD"), companyDomain: domain }],
    });
    await waitForCompletion(key, batchId);
    const receipt = await (
      await post(
        key,
        "/privacy/erasures",
        { fullName: "Zoë Ünal".normalize("NFC"), companyDomain: domain, suppress: false },
        "test",
      )
    ).json();
    expect(receipt).toMatchObject({ items: 1, batches: 1 });
  });
});
