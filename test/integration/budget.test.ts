import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { BudgetState } from "../../src/credits/budget-store";
import type { LedgerEntry } from "../../src/credits/ledger";
import { apiKeyWrites, hashApiKey } from "../../src/keys/api-key";
import {
  createKey,
  expectProblem,
  request,
  submit,
  submitBatch,
  untilOutboxReported,
  usageOf,
  waitForCompletion,
} from "../helpers";

// The sandbox finds Ada's work email (1 credit) and mobile (10): an estimate's maximum is 11 a person.
const ada = { firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" };
const json = { "content-type": "application/json" };

const putBudget = (key: string, body: unknown) =>
  request("/v2/test/me/budget", { key, method: "PUT", headers: json, body: JSON.stringify(body) });
const budgetOf = async (key: string) => (await request("/v2/test/me/budget", { key })).json<BudgetState>();
const ledgerOf = async (key: string, query = "") =>
  (await request(`/v2/test/me/ledger${query}`, { key })).json<{ entries: LedgerEntry[]; nextCursor: string | null }>();
const usageTotals = async (key: string) => (await usageOf(key)).totals;
const batchCount = async (key: string) =>
  (await (await request("/v2/test/person/contact-info", { key })).json<{ batches: unknown[] }>()).batches.length;

describe("GET and PUT /v2/{environment}/me/budget (issue 50)", () => {
  it("has no budget at first, sets one with the default alert percents, and removes it with null", async () => {
    const { key } = await createKey();
    expect(await budgetOf(key)).toMatchObject({ monthlyCredits: null, usedThisMonth: 0, reserved: 0, remaining: null });
    const set = await putBudget(key, { monthlyCredits: 100 });
    expect(set.status).toBe(200);
    const budget = await set.json<BudgetState>();
    expect(budget).toMatchObject({ monthlyCredits: 100, remaining: 100, alertPercents: [50, 80, 100] });
    expect(Date.parse(budget.resetsAt)).toBeGreaterThan(Date.now());
    expect(new Date(budget.resetsAt).getUTCDate()).toBe(1);
    expect(await budgetOf(key)).toEqual(budget);
    expect((await (await putBudget(key, { monthlyCredits: null })).json<BudgetState>()).remaining).toBeNull();
  });

  it("answers a bad value 400 invalid_request, and changes nothing", async () => {
    const { key } = await createKey();
    await putBudget(key, { monthlyCredits: 7 });
    for (const body of [
      { monthlyCredits: -1 },
      { monthlyCredits: 2.5 },
      { monthlyCredits: 5, alertPercents: [101] },
      {},
    ])
      await expectProblem(await putBudget(key, body), 400, "invalid_request");
    expect((await budgetOf(key)).monthlyCredits).toBe(7);
  });
});

describe("a submit reserves its cap against what remains (issue 50)", () => {
  it("refuses a batch whose cap does not fit with 402 budget_exceeded, creating nothing", async () => {
    const { key } = await createKey();
    await putBudget(key, { monthlyCredits: 20 });
    const refused = await submit(key, { items: [ada, { ...ada, firstName: "Augusta" }] });
    const problem = await expectProblem(refused, 402, "budget_exceeded");
    expect(problem).toMatchObject({ scope: "customer", monthlyCredits: 20, remaining: 20, cap: 22 });
    expect(await batchCount(key)).toBe(0);
    expect((await budgetOf(key)).reserved).toBe(0);
    await expectProblem(await submit(key, { items: [ada], maxCredits: 21 }), 402, "budget_exceeded");
  });

  it("the estimate says what remains; a batch within it runs, its reservation shrinks to its charge, a refund gives back", async () => {
    const { key } = await createKey();
    await putBudget(key, { monthlyCredits: 30 });
    const estimate = await request("/v2/test/person/contact-info/estimate", {
      key,
      method: "POST",
      headers: json,
      body: JSON.stringify({ items: [ada] }),
    });
    expect(await estimate.json()).toMatchObject({ maxCredits: 11, remainingCredits: 30 });

    const batchId = await submitBatch(key, { items: [ada, { ...ada, companyDomain: "notfound.test" }] });
    const status = await waitForCompletion(key, batchId);
    expect(status.maxCredits).toBe(22);
    expect(status.creditsCharged).toBe(11);
    await untilOutboxReported(batchId);
    expect(await budgetOf(key)).toMatchObject({ usedThisMonth: 11, reserved: 0, remaining: 19 });

    const email = status.items[0]?.emails[0]?.address;
    const refund = await request("/v2/test/feedback", {
      key,
      method: "POST",
      headers: json,
      body: JSON.stringify({ batchId, index: 0, kind: "email_bounced", value: email }),
    });
    expect(refund.status).toBe(200);
    await untilOutboxReported(batchId);
    expect(await budgetOf(key)).toMatchObject({ usedThisMonth: 10, remaining: 20 });

    const { entries } = await ledgerOf(key);
    expect(
      entries.map(({ kind, contact, credits, index, batchId: id }) => ({ kind, contact, credits, index, id })),
    ).toEqual([
      { kind: "charge", contact: "email", credits: 1, index: 0, id: batchId },
      { kind: "charge", contact: "phone", credits: 10, index: 0, id: batchId },
      { kind: "refund", contact: "email", credits: 1, index: 0, id: batchId },
    ]);
    const totals = await usageTotals(key);
    const sum = (kind: string) => entries.filter((e) => e.kind === kind).reduce((total, e) => total + e.credits, 0);
    expect([sum("charge"), sum("refund")]).toEqual([totals.credits, totals.creditsRefunded]);
  });

  it("holds a key to its operator's cap inside the customer's budget, naming the key's cap", async () => {
    const { key, hash, record } = await createKey();
    record.monthlyCredits = 15;
    for (const write of apiKeyWrites(hash, record)) await env.API_KEYS.put(write.key, write.value, write);
    expect(hash).toBe(await hashApiKey(key));
    await putBudget(key, { monthlyCredits: 1000 });
    const first = await submitBatch(key, { items: [ada] });
    await waitForCompletion(key, first);
    const refused = await expectProblem(await submit(key, { items: [ada] }), 402, "budget_exceeded");
    expect(refused).toMatchObject({ scope: "key", monthlyCredits: 15 });
    expect((await budgetOf(key)).key).toMatchObject({ monthlyCredits: 15 });
  });
});

describe("GET /v2/{environment}/me/ledger (issue 50)", () => {
  it("pages by cursor, answers CSV with the same entries, and shows another customer nothing", async () => {
    const { key } = await createKey();
    const other = await createKey();
    const batchId = await submitBatch(key, { items: [ada, { ...ada, firstName: "Augusta" }] });
    await waitForCompletion(key, batchId);
    await untilOutboxReported(batchId);
    const all = await ledgerOf(key);
    expect(all.entries.length).toBeGreaterThanOrEqual(3);
    const limit = all.entries.length - 1;
    const first = await ledgerOf(key, `?limit=${limit}`);
    expect(first.nextCursor).not.toBeNull();
    const rest = await ledgerOf(key, `?limit=${limit}&cursor=${first.nextCursor}`);
    expect([...first.entries, ...rest.entries]).toEqual(all.entries);
    expect(rest.nextCursor).toBeNull();

    const csv = await request("/v2/test/me/ledger", { key, headers: { accept: "text/csv" } });
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("at,kind,batchId,index,contact,source,credits");
    expect(lines.slice(1)).toEqual(
      all.entries.map((e) => [e.at, e.kind, e.batchId, e.index, e.contact, e.source, e.credits].join(",")),
    );

    expect((await ledgerOf(other.key)).entries).toEqual([]);
    await expectProblem(await request("/v2/test/me/ledger?cursor=nope!", { key }), 400, "invalid_query");
    await expectProblem(await request("/v2/test/me/ledger?limit=0", { key }), 400, "invalid_query");
  });
});
