import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hubspot } from "../../../src/crm/hubspot";
import { syncStub } from "../../../src/crm/stub";
import {
  applySync,
  connectedKey,
  hubspotCalls,
  hubspotContact,
  hubspotControl,
  hubspotListEnriched,
  hubspotPortalWith,
  runSync,
  type SeedContact,
  startSync,
  untilSynced,
} from "../../crm-fake";
import { request, until } from "../../helpers";

// HubSpot's limits and failures during a sync: batches of 100, 429 with its headers, 207 per-record
// errors, a token revoked midway, read-only properties, duplicate records, suppressed and erased people.

const READ = "POST /crm/v3/objects/contacts/batch/read";
const UPDATE = "POST /crm/v3/objects/contacts/batch/update";

const contact = (n: number, extra: Record<string, string> = {}): SeedContact => ({
  id: String(1000 + n),
  properties: { firstname: `Person${n}`, lastname: "Example", website: `co${n}.example`, ...extra },
});

const listed = (contacts: SeedContact[], members?: string[], readOnly?: string[]) =>
  hubspotListEnriched(contacts, "1", members, readOnly);

const write = { provider: "hubspot", fields: { email: "overwrite" }, dryRun: false };

describe("HubSpot's limits during a sync", () => {
  it("reads and writes 100 records a call, and on a revoked token fails crm_unauthorized with what was written", async () => {
    const { key, token, batchId } = await listed(Array.from({ length: 150 }, (_, n) => contact(n)));
    await hubspotControl("revoke", { token, afterUpdates: 1 });
    const sync = await runSync(key, { ...write, batchId });
    expect(sync).toMatchObject({ status: "failed", error: { code: "crm_unauthorized" } });
    expect(sync.error?.message).toMatch(/reconnect/);
    expect(sync.counts).toEqual({ updated: 100, unchanged: 0, skipped: 0, failed: 0 });
    expect(sync.records.filter((record) => record.outcome === null)).toHaveLength(50);
    expect(await hubspotCalls(token)).toMatchObject({ [UPDATE]: 1 });
  });

  it("waits as a 429 says (X-HubSpot-RateLimit-Interval-Milliseconds), then goes on", async () => {
    const { key, token, batchId } = await listed([contact(1)]);
    await hubspotControl("throttle", { token, count: 1 });
    const started = await startSync(key, { ...write, batchId });
    const { id } = await started.json<{ id: string }>();
    const stub = syncStub(env, id);
    const waiting = await until(
      () =>
        runInDurableObject(stub, async (_, state) => ({
          waits: state.storage.sql.exec<{ waits: number }>("SELECT waits FROM sync").one().waits,
          alarm: await state.storage.getAlarm(),
        })),
      { what: "the sync waiting", done: (state) => state.waits === 1 },
    );
    expect(waiting.alarm).toBeGreaterThan(Date.now() + 8_000);
    await runDurableObjectAlarm(stub);
    expect((await untilSynced(key, id)).counts.updated).toBe(1);
  });

  it("reports HubSpot's 207 errors per record and writes the others", async () => {
    // 1001's found address is held by another contact (HubSpot's emails are unique): CONFLICT.
    const { key, token, batchId } = await listed([contact(1), contact(2)]);
    await hubspotControl("edit", { token, id: "1002", property: "email", value: "person1.example@co1.example" });
    const sync = await runSync(key, { ...write, batchId });
    const failed = sync.records.find((record) => record.recordId === "1001");
    expect(failed).toMatchObject({ outcome: "failed", error: { code: "CONFLICT" } });
    expect(sync.records.find((record) => record.recordId === "1002")?.outcome).toBe("updated");
    expect((await hubspotContact(token, "1001")).properties.email).toBeUndefined();
  });

  it("fails crm_refused on a read-only property, writing nothing", async () => {
    const { key, token, batchId } = await listed([contact(1)], undefined, ["email"]);
    const sync = await runSync(key, { ...write, batchId });
    expect(sync).toMatchObject({ status: "failed", error: { code: "crm_refused" }, counts: { updated: 0 } });
    expect((await hubspotContact(token, "1001")).properties.email).toBeUndefined();
  });

  it("writes a record listed twice once, and never for a suppressed or erased person", async () => {
    const people = [contact(1), contact(2), contact(3)];
    const { key, token, batchId } = await listed(people, ["1001", "1001", "1002", "1003"]);
    const json = (method: string, body: unknown) => ({
      method,
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const person = (n: number) => ({ firstName: `Person${n}`, lastName: "Example", companyDomain: `co${n}.example` });
    expect((await request("/v2/test/privacy/suppressions", json("PUT", { items: [person(2)] }))).status).toBe(200);
    expect((await request("/v2/test/privacy/erasures", json("POST", { ...person(3), suppress: false }))).status).toBe(
      200,
    );
    const sync = await runSync(key, { ...write, batchId });
    expect(sync.records.map((record) => [record.index, record.outcome, record.reason])).toEqual([
      [0, "updated", undefined],
      [1, "skipped", "duplicate_record"],
      [2, "skipped", "suppressed"],
      [3, "skipped", "erased"],
    ]);
    expect(await hubspotCalls(token)).toMatchObject({ [UPDATE]: 1 });
    expect((await hubspotContact(token, "1002")).properties.email).toBeUndefined();
    expect(READ in (await hubspotCalls(token))).toBe(true);
  });

  it("applies nothing for a person suppressed or erased after the preview", async () => {
    const { key, token, batchId } = await listed([contact(1), contact(2), contact(3)]);
    const preview = await runSync(key, { batchId, provider: "hubspot", fields: { email: "overwrite" } });
    expect(preview.counts.updated).toBe(3);
    const json = (method: string, body: unknown) => ({
      method,
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const person = (n: number) => ({ firstName: `Person${n}`, lastName: "Example", companyDomain: `co${n}.example` });
    await request("/v2/test/privacy/suppressions", json("PUT", { items: [person(1)] }));
    await request("/v2/test/privacy/erasures", json("POST", { ...person(2), suppress: false }));
    const applied = await applySync(key, preview.id);
    expect(applied.records.map((record) => [record.outcome, record.reason])).toEqual([
      ["skipped", "suppressed"],
      ["skipped", "erased"],
      ["updated", undefined],
    ]);
    expect((await hubspotContact(token, "1001")).properties.email).toBeUndefined();
    expect((await hubspotContact(token, "1002")).properties.email).toBeUndefined();
    expect((await hubspotContact(token, "1003")).properties.email).toBe("person3.example@co3.example");
  });
});

describe("HubSpot's documented limits, which the fake enforces", () => {
  // Reads with propertiesWithHistory: at most 50 records a call; other reads and updates at most 100;
  // memberships pages at most 250 (test/fakes/hubspot.ts answers 400 VALIDATION_ERROR past them).
  for (const size of [51, 120])
    it(`previews and applies a list of ${size}, reading with history 50 records at most a call`, async () => {
      const { key, token, batchId } = await listed(Array.from({ length: size }, (_, n) => contact(n)));
      const preview = await runSync(key, { batchId, provider: "hubspot", fields: { email: "overwrite" } });
      expect(preview).toMatchObject({ status: "completed", counts: { updated: size, failed: 0 } });
      const applied = await applySync(key, preview.id);
      expect(applied).toMatchObject({ status: "completed", counts: { updated: size, failed: 0 } });
      const calls = await hubspotCalls(token);
      // The list's members: ⌈size/100⌉ reads; the preview and the apply: per step of 100, ⌈n/50⌉ reads each.
      const withHistory = 2 * (Math.floor(size / 100) * 2 + Math.ceil((size % 100) / 50));
      expect(calls[READ]).toBe(Math.ceil(size / 100) + withHistory);
      expect(calls[UPDATE]).toBe(Math.ceil(size / 100));
      expect((await hubspotContact(token, String(1000 + size - 1))).properties.email).toBe(
        `person${size - 1}.example@co${size - 1}.example`,
      );
    });

  it("reads a list of 10,000 members in pages of 250 and reads of 100, and refuses one of 10,001 (413)", async () => {
    const token = await hubspotPortalWith({ generated: { listId: "1", count: 10_000 }, tier: "professional" });
    const call = {
      provider: "hubspot",
      fetch: (input: Request | string | URL, init?: RequestInit) => fetch(input, init),
      timeoutMs: 10_000,
    };
    const members = await hubspot
      .create({ provider: "hubspot", token, baseUrl: "https://hubspot.test" }, call)
      .listMembers("1", 10_000);
    expect(members).toHaveLength(10_000);
    expect(members?.[9_999]).toEqual({
      id: "109999",
      fields: { firstName: "Person9999", lastName: "Example", companyDomain: "co9999.example" },
    });
    expect(await hubspotCalls(token)).toEqual({ "GET /crm/v3/lists/{listId}/memberships": 40, [READ]: 100 });

    const larger = await hubspotPortalWith({ generated: { listId: "1", count: 10_001 }, tier: "professional" });
    const key = await connectedKey("hubspot", larger);
    const answer = await request("/v2/test/person/contact-info", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ source: { provider: "hubspot", listId: "1" } }),
    });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ code: "too_many_items" });
  });
});
