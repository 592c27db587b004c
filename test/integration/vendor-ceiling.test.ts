import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminApi } from "../../src/admin/admin-api";
import type { ItemMessage } from "../../src/queue-messages/item-message";
import { DAYS_KEPT, nextUtcDay } from "../../src/vendor-governor/daily-ceiling";
import { ceilingStub } from "../../src/vendor-governor/stub";
import { callsMentioning } from "../fakes/upstreams";
import { createKey, deliver, envWith, faultyItemQueue, getStatus, sentMessage, submitBatch, until } from "../helpers";

// The operator's ceiling on a vendor's paid calls per UTC day (VENDOR_DAILY_CALLS), with the fake
// vendors (test/fakes/): its object, the live waterfall at it, and the admin view of it.
const ADMIN_TOKEN = "adm_testtoken"; // vitest.config.ts
const T0 = Date.parse("2026-11-29T12:00:00.000Z");
const DAY_MS = 86_400_000;

// Objects of this file's own, so no other test's counts mix in.
const ceilingObject = () => env.VENDOR_CEILINGS.getByName(`ceiling-test-${crypto.randomUUID()}`);
const daysKept = (stub: ReturnType<typeof ceilingObject>) =>
  runInDurableObject(stub, (_, state) =>
    state.storage.sql
      .exec<{ day: string }>("SELECT day FROM calls_per_day ORDER BY day")
      .toArray()
      .map(({ day }) => day),
  );

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("a vendor's ceiling object", () => {
  it("never grants past the ceiling, however many consumers take at once, and grants all of it", async () => {
    const stub = ceilingObject();
    const wants = Array.from({ length: 40 }, (_, i) => 1 + (i % 7));
    const grants = await Promise.all(wants.map((want) => stub.take(want, 100)));
    expect(grants.reduce((sum, grant) => sum + grant.granted, 0)).toBe(100);
    for (const [i, grant] of grants.entries()) expect(grant.granted).toBeLessThanOrEqual(wants[i]!);
    expect((await stub.today()).calls).toBe(100);
    expect((await stub.take(1, 100)).granted).toBe(0);
  });

  it("keeps its count through an eviction", async () => {
    const stub = ceilingObject();
    await stub.take(3, 10);
    await evictDurableObject(stub);
    expect((await stub.today()).calls).toBe(3);
    expect(await stub.take(10, 10)).toMatchObject({ granted: 7, calls: 10 });
  });

  it("starts each UTC day at zero, and forgets days older than it keeps", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const stub = ceilingObject();
    vi.setSystemTime(T0);
    expect(await stub.take(5, 5)).toEqual({ granted: 5, calls: 5, resetsAt: nextUtcDay(T0) });
    expect((await stub.take(1, 5)).granted).toBe(0);
    vi.setSystemTime(nextUtcDay(T0));
    expect(await stub.today()).toEqual({ day: "2026-11-30", calls: 0 });
    expect((await stub.take(1, 5)).granted).toBe(1);
    expect(await daysKept(stub)).toEqual(["2026-11-29", "2026-11-30"]);
    vi.setSystemTime(T0 + DAYS_KEPT * DAY_MS);
    await stub.take(1, 5);
    expect(await daysKept(stub)).toEqual(["2026-11-30", "2026-12-06"]);
  });
});

// Hunter first, then PDL; only the finders, and no verifier, so the calls counted are these.
const finders = (dailyCalls: string, providers = "hunter,pdl") =>
  envWith({ ENRICHMENT_PROVIDERS: providers, ENRICHMENT_VERIFIERS: "", VENDOR_DAILY_CALLS: dailyCalls });
// This file's own domains, so the fakes' counts are of its calls only.
const tag = `c${crypto.randomUUID().slice(0, 8)}`;
const calls = (host: string) => callsMentioning(host, tag);
const hunterToday = async () => (await ceilingStub(env, "hunter").today()).calls;

/** Submits a live batch of `names` and answers its id with the item message the fan-out sent, kept from the queue. */
async function keptBatch(key: string, names: string[]): Promise<{ batchId: string; message: ItemMessage }> {
  const queue = faultyItemQueue(async () => {});
  const items = names.map((fullName) => ({ fullName, companyDomain: `${tag}-ceiling.example` }));
  const batchId = await submitBatch(key, { items, fields: ["email"] }, "live");
  const sent = await until(async () => queue.mock.calls.flatMap(([requests]) => [...requests].map(sentMessage)), {
    what: "the batch's item message",
    done: (messages) => messages.some((message) => message.batchId === batchId),
  });
  queue.mockRestore();
  return { batchId, message: sent.find((message) => message.batchId === batchId)! };
}

describe("a live batch when a vendor reaches its daily ceiling", () => {
  it("skips that vendor for the next, says so in the item's sources, and counts only the calls made", async () => {
    const { key } = await createKey({ environment: "live" });
    const { batchId, message } = await keptBatch(key, ["Ann Ceiling", "Bob Ceiling", "Cy Ceiling"]);
    const before = { hunter: await calls("hunter.test"), pdl: await calls("pdl.test"), counted: await hunterToday() };
    // Two more Hunter calls today, whatever other tests of this file counted before.
    const ceiled = finders(`hunter=${before.counted + 2}`);

    await deliver("contact-info-items", [message], 1, ceiled);
    const status = await getStatus(key, batchId);
    expect(status).toMatchObject({ status: "completed", completedItems: 3, failedItems: 0, creditsCharged: 3 });
    const byHunter = status.items.filter((item) => item.emails[0]?.source === "hunter");
    const skipped = status.items.filter((item) => item.emails[0]?.source === "pdl");
    expect(byHunter).toHaveLength(2);
    for (const item of byHunter)
      expect(item.sources).toEqual([
        { name: "hunter", outcome: "found" },
        { name: "pdl", outcome: "skipped" },
      ]);
    // The third is PDL's, charged for PDL's email alone: Hunter is not asked, and nothing is charged for it.
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ outcome: "found", credits: 1 });
    expect(skipped[0]!.sources).toEqual([
      { name: "hunter", outcome: "skipped", reason: "vendor_budget_exhausted" },
      { name: "pdl", outcome: "found" },
    ]);
    expect(await calls("hunter.test")).toBe(before.hunter + 2);
    expect(await calls("pdl.test")).toBe(before.pdl + 1);
    expect(await hunterToday()).toBe(before.counted + 2);

    // The message delivered again: its items are recorded, so no vendor is called, and nothing more is counted.
    await deliver("contact-info-items", [message], 2, ceiled);
    expect(await calls("hunter.test")).toBe(before.hunter + 2);
    expect(await hunterToday()).toBe(before.counted + 2);
  });

  it("fails an item whose only vendor is at its ceiling source_unavailable, uncharged, without calling it", async () => {
    const { key } = await createKey({ environment: "live" });
    const { batchId, message } = await keptBatch(key, ["Dee Ceiling"]);
    const before = { hunter: await calls("hunter.test"), counted: await hunterToday() };
    await deliver("contact-info-items", [message], 1, finders(`hunter=${before.counted}`, "hunter"));
    const status = await getStatus(key, batchId);
    expect(status).toMatchObject({ status: "completed", failedItems: 1, creditsCharged: 0 });
    expect(status.items[0]).toMatchObject({
      status: "failed",
      credits: 0,
      error: { code: "source_unavailable" },
      sources: [{ name: "hunter", outcome: "skipped", reason: "vendor_budget_exhausted" }],
    });
    expect(await calls("hunter.test")).toBe(before.hunter);
    expect(await hunterToday()).toBe(before.counted);
  });
});

describe("GET /admin/sources", () => {
  it("shows each vendor VENDOR_DAILY_CALLS names with its calls today against its ceiling", async () => {
    const counted = await hunterToday();
    const response = await adminApi.request(
      "https://api.test/admin/sources?environment=live",
      { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      envWith({ VENDOR_DAILY_CALLS: "hunter=5000,zerobounce=20" }),
    );
    expect(response.status).toBe(200);
    const { vendorCeilings } = await response.json<{ vendorCeilings: unknown[] }>();
    const today = new Date().toISOString().slice(0, 10);
    expect(vendorCeilings).toEqual([
      { vendor: "hunter", day: today, calls: counted, ceiling: 5000 },
      { vendor: "zerobounce", day: today, calls: 0, ceiling: 20 },
    ]);
    const none = await adminApi.request(
      "https://api.test/admin/sources",
      { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      envWith({ VENDOR_DAILY_CALLS: "" }),
    );
    expect((await none.json<{ vendorCeilings: unknown[] }>()).vendorCeilings).toEqual([]);
  });
});
