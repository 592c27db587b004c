import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { latencyBucket } from "../../src/account/latency";
import { scorecardOf } from "../../src/account/scorecard";
import { accountStub } from "../../src/account/stub";
import { emptySource, emptyUsage } from "../../src/account/usage";
import type { SourceScorecards } from "../../src/account/views";
import { createKey, request, submitBatch, until, waitForCompletion } from "../helpers";

/** A batch as it reports itself to its account. */
const batchOf = () => ({
  id: crypto.randomUUID(),
  totalItems: 1,
  completedItems: 1,
  failedItems: 0,
  createdAt: new Date().toISOString(),
  completedAt: new Date().toISOString(),
  creditsCharged: 1,
  maxCredits: null,
  creditsRefunded: 0,
  deletedAt: null,
  expiredAt: null,
  peopleComplete: false,
});

const scorecards = async (key: string) =>
  (await (await request("/v2/test/me/sources", { key })).json<SourceScorecards>()).sources;

describe("GET /v2/{environment}/me/sources", () => {
  it("scores each source from the items that finished, with the contacts reported wrong", async () => {
    const { key } = await createKey();
    const ada = { firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" };
    const batchId = await submitBatch(key, { items: [ada, { fullName: "No Body", companyDomain: "notfound.test" }] });
    const [found] = (await waitForCompletion(key, batchId)).items;
    await request("/v2/test/feedback", {
      key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ batchId, index: 0, kind: "email_bounced", value: found?.emails[0]?.address }),
    });
    const sources = await until(() => scorecards(key), {
      what: "the report in the scorecards",
      done: (cards) => cards.some((card) => card.source === "sandbox" && card.reported === 1),
    });
    expect(sources.find((card) => card.source === "sandbox")).toMatchObject({
      calls: 2,
      hits: 1,
      hitRate: 0.5,
      verifiedValid: 1,
      verifiedValidRate: 1,
      reported: 1,
      creditsRefunded: 1,
      medianLatencyMs: expect.any(Number),
      rateLimited: 0,
    });
    expect(sources.find((card) => card.source === "sandbox:verifier")).toMatchObject({ calls: 1, hits: 1 });
  });

  it("counts a report sent again once (its outbox seq), so redelivered work never counts twice", async () => {
    const { record } = await createKey({ environment: "live" });
    const day = new Date().toISOString().slice(0, 10);
    const usage = {
      ...emptyUsage(),
      items: 1,
      found: 1,
      sources: { hunter: { ...emptySource(), calls: 1, found: 1, verifiedValid: 1, rateLimited: 0 } },
      latencies: { hunter: { [String(latencyBucket(200))]: 1 } },
    };
    const account = accountStub(env, { customerId: record.customerId, environment: "live" });
    const batch = batchOf();
    await account.report({ batch, entries: [{ seq: 1, day, usage }] });
    await account.report({ batch, entries: [{ seq: 1, day, usage }] });
    const [hunter] = (await account.sourceCounts({ from: day, to: day })).map(scorecardOf);
    expect(hunter).toMatchObject({ source: "hunter", calls: 1, hits: 1, verifiedValid: 1 });
    expect(Math.abs((hunter?.medianLatencyMs ?? 0) - 200) / 200).toBeLessThan(0.05);
  });
});

describe("GET /admin/sources", () => {
  const ADMIN_TOKEN = "adm_testtoken"; // vitest.config.ts
  const sourcesFor = (token: string) =>
    exports.default.fetch(
      new Request("https://api.test/admin/sources?environment=live", { headers: { authorization: `Bearer ${token}` } }),
    );

  it("sums every customer's counts per source, medians from their histograms, behind the admin token", async () => {
    // A source of this test's own, so other files' customers add nothing to it.
    const source = `vendor-${crypto.randomUUID().slice(0, 8)}`;
    const day = new Date().toISOString().slice(0, 10);
    for (const ms of [100, 300]) {
      const { record } = await createKey({ environment: "live" });
      const usage = {
        ...emptyUsage(),
        items: 2,
        found: 1,
        sources: { [source]: { ...emptySource(), calls: 2, found: 1, verifiedValid: 1, rateLimited: 1 } },
        latencies: { [source]: { [String(latencyBucket(ms))]: 2 } },
      };
      await accountStub(env, { customerId: record.customerId, environment: "live" }).report({
        batch: { ...batchOf(), id: crypto.randomUUID() },
        entries: [{ seq: 1, day, usage }],
      });
    }
    expect((await sourcesFor("adm_wrong")).status).toBe(404);
    const response = await sourcesFor(ADMIN_TOKEN);
    expect(response.status).toBe(200);
    const stats = await response.json<SourceScorecards & { customers: number }>();
    expect(stats.customers).toBeGreaterThanOrEqual(2);
    expect(stats.sources.find((card) => card.source === source)).toMatchObject({
      calls: 4,
      hits: 2,
      hitRate: 0.5,
      verifiedValid: 2,
      verifiedValidRate: 1,
      rateLimited: 2,
      medianLatencyMs: expect.any(Number),
    });
  });

  it("sums the others when one customer's account cannot answer, and says how many could not", async () => {
    const { record } = await createKey({ environment: "live" });
    const account = accountStub(env, { customerId: record.customerId, environment: "live" });
    // An account whose read fails: a table it reads is gone (an error the caller gets, not an object
    // that cannot start, which workerd would report as an uncaught exception with its stack).
    await runInDurableObject(account, (_, state) => {
      state.storage.sql.exec("DROP TABLE usage_sources");
    });
    await evictDurableObject(account);
    const response = await sourcesFor(ADMIN_TOKEN);
    expect(response.status).toBe(200);
    expect((await response.json<{ unreadable: number }>()).unreadable).toBeGreaterThanOrEqual(1);
  });
});
