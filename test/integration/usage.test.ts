import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/stub";
import { emptySource, type UsageCounters } from "../../src/account/usage";
import type { UsageReport } from "../../src/account/views";
import {
  createKey,
  deliver,
  expectProblem,
  faultyItemQueue,
  itemMessage,
  person,
  request,
  submitBatch,
  untilOutboxReported,
  waitForCompletion,
} from "../helpers";

const today = () => new Date().toISOString().slice(0, 10);

const usageOf = async (key: string, query = "") => {
  const response = await request(`/v2/test/me/usage${query}`, { key });
  if (response.status !== 200) throw new Error(`usage answered ${response.status}: ${await response.text()}`);
  return response.json<UsageReport>();
};

/** Usage as the batch's items say it should be: each finished item once, each source asked once per item, its credits once. */
function expectedUsage(
  items: {
    status: string;
    outcome: string | null;
    fromCache: boolean;
    credits: number;
    emails: { source: string; status: string }[];
    sources: { name: string; outcome: string; kind?: string }[];
  }[],
) {
  const usage: UsageCounters = {
    items: 0,
    found: 0,
    notFound: 0,
    failed: 0,
    fromCache: 0,
    credits: 0,
    creditsRefunded: 0,
    sources: {},
  };
  for (const item of items.filter((i) => i.status !== "pending")) {
    usage.items++;
    usage.credits += item.credits;
    if (item.status === "failed") usage.failed++;
    else if (item.outcome === "found") usage.found++;
    else usage.notFound++;
    if (item.fromCache) usage.fromCache++;
    for (const source of item.sources.filter((s) => s.outcome !== "skipped")) {
      const name = source.kind === "verifier" ? `${source.name}:verifier` : source.name;
      const counted = usage.sources[name] ?? emptySource();
      counted.calls++;
      if (source.outcome === "found") counted.found++;
      const valid = item.emails.some((email) => email.source === source.name && email.status === "valid");
      if (source.kind === undefined && valid) counted.verifiedValid++;
      usage.sources[name] = counted;
    }
  }
  return usage;
}

describe("GET /v2/{environment}/me/usage", () => {
  it("counts each finished item and its credits once, on the day it finished, after duplicate deliveries and a repeated report", async () => {
    const { key, record } = await createKey();
    const inputs = [
      person(),
      person({ firstName: "Grace", lastName: "Hopper" }),
      person({ companyDomain: "unknown.example" }),
      person({ companyDomain: "notfound.test" }),
    ];
    const batchId = await submitBatch(key, { items: [...inputs, { bad: 1 }] });
    const messages = inputs.map((input, index) => itemMessage(batchId, index, input, record.customerId));
    // Besides the real queue's delivery: every message twice more, and one twice within a delivery.
    await deliver("contact-info-items", messages);
    await deliver("contact-info-items", [messages[0]!, messages[0]!, ...messages]);
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ totalItems: 5, failedItems: 1 });
    // The usage's credits are the batch's charge, which is the sum of its items' (found ones cost, the miss and the invalid item not).
    expect(status.creditsCharged).toBe(status.items.reduce((sum, item) => sum + item.credits, 0));
    expect(status.creditsCharged).toBeGreaterThanOrEqual(3);
    expect(status.items.filter((item) => item.outcome !== "found").map((item) => item.credits)).toEqual([0, 0]);
    await untilOutboxReported(batchId);

    // A report the account applied but whose answer was lost is sent again: applied once.
    const owner = { customerId: record.customerId, environment: "test" as const };
    const report = {
      batch: { ...status, deletedAt: null, expiredAt: null, peopleComplete: false },
      entries: [
        { seq: 1, day: today(), usage: { ...expectedUsage(status.items), items: 99, latencies: {}, domains: {} } },
      ],
    };
    await accountStub(env, owner).report(report);
    await deliver("contact-info-items", messages);

    const expected = expectedUsage(status.items);
    expect(expected).toMatchObject({ items: 5, failed: 1, credits: status.creditsCharged });
    const usage = await usageOf(key, `?from=${today()}&to=${today()}`);
    expect(usage).toEqual({ from: today(), to: today(), days: [{ date: today(), ...expected }], totals: expected });
    expect(Object.keys(usage.totals.sources).length).toBeGreaterThan(0);
  });

  it("lists every day of the default 30-day range, only the caller's customer and environment, and keeps a deleted batch's usage", async () => {
    const { key } = await createKey();
    const other = await createKey();
    const batchId = await submitBatch(key, { items: [person(), { bad: 1 }] });
    await waitForCompletion(key, batchId);
    await untilOutboxReported(batchId);
    const before = await usageOf(key);
    expect(before.days).toHaveLength(30);
    expect(before.to).toBe(today());
    expect(before.days.at(-1)!.date).toBe(today());
    expect(before.totals).toMatchObject({ items: 2, failed: 1 });
    expect(before.days.slice(0, -1).every((day) => day.items === 0)).toBe(true);
    expect((await usageOf(other.key)).totals.items).toBe(0);

    expect((await request(`/v2/test/person/contact-info/${batchId}`, { method: "DELETE", key })).status).toBe(204);
    await untilOutboxReported(batchId);
    expect(await usageOf(key)).toEqual(before);
  });

  it("counts the items failed at submission, and nothing more, for a batch deleted while pending", async () => {
    faultyItemQueue(async () => {
      throw new Error("queue down");
    });
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person(), person({ firstName: "B" }), { bad: 1 }] });
    expect((await request(`/v2/test/person/contact-info/${batchId}`, { method: "DELETE", key })).status).toBe(204);
    vi.restoreAllMocks();
    await untilOutboxReported(batchId);
    expect((await usageOf(key)).totals).toEqual({
      items: 1,
      found: 0,
      notFound: 0,
      failed: 1,
      fromCache: 0,
      credits: 0,
      creditsRefunded: 0,
      sources: {},
    });
  });

  it.each([
    "?from=2026-02-30",
    "?from=2025-01-01&to=2026-01-02",
    "?from=2026-11-23&to=2026-11-22",
    "?to=today",
    "?days=7",
  ])("refuses %s with 400 invalid_query", async (query) => {
    const { key } = await createKey();
    await expectProblem(await request(`/v2/test/me/usage${query}`, { key }), 400, "invalid_query");
  });
});

describe("the account's report", () => {
  it("applies each outbox seq of a batch once, whatever the order and repetition of reports", async () => {
    const account = accountStub(env, { customerId: `cus_${crypto.randomUUID()}`, environment: "test" });
    const batch = {
      id: crypto.randomUUID(),
      totalItems: 3,
      completedItems: 3,
      failedItems: 0,
      createdAt: new Date().toISOString(),
      completedAt: null,
      creditsRefunded: 0,
      deletedAt: null,
      expiredAt: null,
      peopleComplete: false,
      creditsCharged: 3,
      maxCredits: null,
    };
    const one = {
      items: 1,
      found: 1,
      notFound: 0,
      failed: 0,
      fromCache: 0,
      credits: 1,
      creditsRefunded: 0,
      sources: { sandbox: { calls: 1, found: 1, reported: 0, creditsRefunded: 0, verifiedValid: 0, rateLimited: 0 } },
      latencies: {},
      domains: {},
    };
    const day = "2026-11-01";
    // The outbox is resent whole after a lost answer, and overlaps the next report.
    const report = (seqs: number[]) =>
      account.report({ batch, entries: seqs.map((seq) => ({ seq, day, usage: one })) });
    expect(await report([1, 2])).toMatchObject({ reportedSeq: 2 });
    expect(await report([1, 2])).toMatchObject({ reportedSeq: 2 });
    expect(await report([2, 3])).toMatchObject({ reportedSeq: 3 });
    const { totals } = await account.usage({ from: day, to: day });
    expect(totals).toEqual({
      items: 3,
      found: 3,
      notFound: 0,
      failed: 0,
      fromCache: 0,
      credits: 3,
      creditsRefunded: 0,
      sources: { sandbox: { calls: 3, found: 3, reported: 0, creditsRefunded: 0, verifiedValid: 0, rateLimited: 0 } },
    });
  });
});
