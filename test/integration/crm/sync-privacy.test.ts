import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountStub } from "../../../src/account/stub";
import type { SyncPage } from "../../../src/crm/schemas";
import { syncStub } from "../../../src/crm/stub";
import {
  applySync,
  connectedKey,
  hubspotContact,
  hubspotListEnriched,
  hubspotPortal,
  runSync,
  type SeedContact,
  undoSync,
} from "../../crm-fake";
import { request, submitBatch, waitForCompletion } from "../../helpers";
import { ownerOf } from "../../test-keys";

// Privacy reaches the CRM syncs made from a batch: erasing a person removes their values (the email
// found, the one their CRM held before, the key they were matched by) from every sync record made from
// their items, kept or not yet applied; deleting the batch, or its retention ending, deletes its syncs.

const FOUND_1 = "person1.example@co1.example";
const BEFORE_1 = "old.one@crm.example";
const contact = (n: number, email?: string): SeedContact => ({
  id: String(1000 + n),
  properties: { firstname: `Person${n}`, lastname: "Example", website: `co${n}.example`, ...(email ? { email } : {}) },
});
const person1 = { firstName: "Person1", lastName: "Example", companyDomain: "co1.example", suppress: false };

async function synced(body: Record<string, unknown>) {
  const { key, token, batchId } = await hubspotListEnriched([contact(1, BEFORE_1), contact(2)], "1");
  const sync = await runSync(key, { batchId, provider: "hubspot", fields: { email: "overwrite" }, ...body });
  expect(JSON.stringify(sync)).toContain(BEFORE_1);
  return { key, token, batchId, sync };
}

const json = (key: string, method: string, body: unknown) => ({
  method,
  key,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const erase = (key: string) => request("/v2/test/privacy/erasures", json(key, "POST", person1));
const readSync = async (key: string, id: string) =>
  (await request(`/v2/test/crm-syncs/${id}`, { key })).json<SyncPage>();
const storedRecords = (id: string) =>
  runInDurableObject(syncStub(env, id), (_, state) =>
    JSON.stringify(state.storage.sql.exec("SELECT * FROM records").toArray()),
  );

describe("a person's erasure reaches the syncs made from their items", () => {
  it("a dry run: their record keeps no value (found, before, match key), is skipped as erased, and applies nothing", async () => {
    const { key, token, sync } = await synced({});
    expect((await erase(key)).status).toBe(200);
    const after = await readSync(key, sync.id);
    expect(after.records[0]).toEqual({
      index: 0,
      recordId: "1001",
      outcome: "skipped",
      reason: "erased",
      changes: [],
      erasedAt: expect.any(String),
    });
    expect(after.records[1]).toMatchObject({ outcome: "updated", changes: [{ after: "person2.example@co2.example" }] });
    for (const text of [JSON.stringify(after), await storedRecords(sync.id)]) {
      expect(text).not.toContain(FOUND_1);
      expect(text).not.toContain(BEFORE_1);
    }
    const applied = await applySync(key, sync.id);
    expect(applied.records.map((record) => [record.outcome, record.reason])).toEqual([
      ["skipped", "erased"],
      ["updated", undefined],
    ]);
    expect((await hubspotContact(token, "1001")).properties.email).toBe(BEFORE_1);
  });

  it("a sync that wrote: the outcome written stays said, the values go", async () => {
    const { key, sync } = await synced({ dryRun: false });
    expect(sync.records[0]).toMatchObject({ outcome: "updated", changes: [{ before: BEFORE_1, after: FOUND_1 }] });
    expect((await erase(key)).status).toBe(200);
    const after = await readSync(key, sync.id);
    expect(after.records[0]).toMatchObject({ outcome: "updated", changes: [], erasedAt: expect.any(String) });
    expect(after.counts.updated).toBe(2);
    expect(JSON.stringify(after)).not.toContain(BEFORE_1);
    expect(await storedRecords(sync.id)).not.toContain(FOUND_1);
  });

  it("an undo: its records (the values it restores) follow the same rule, and it goes with the batch", async () => {
    const { key, batchId, sync } = await synced({ dryRun: false });
    const undo = await undoSync(key, sync.id);
    expect(undo.records[0]).toMatchObject({ outcome: "updated", changes: [{ before: FOUND_1, after: BEFORE_1 }] });
    const retention = (id: string) =>
      runInDurableObject(syncStub(env, id), (_, state) =>
        state.storage.sql.exec("SELECT batch_completed_at FROM sync").one(),
      );
    expect(await retention(undo.id)).toEqual(await retention(sync.id));
    expect((await erase(key)).status).toBe(200);
    const after = await readSync(key, undo.id);
    expect(after.records[0]).toMatchObject({ outcome: "updated", changes: [], erasedAt: expect.any(String) });
    for (const text of [JSON.stringify(after), await storedRecords(undo.id)]) {
      expect(text).not.toContain(FOUND_1);
      expect(text).not.toContain(BEFORE_1);
    }
    expect((await request(`/v2/test/person/contact-info/${batchId}`, { method: "DELETE", key })).status).toBe(204);
    expect((await request(`/v2/test/crm-syncs/${undo.id}`, { key })).status).toBe(404);
  });

  it("matched by email: the email it was matched by goes too", async () => {
    const key = await connectedKey("hubspot", await hubspotPortal([contact(1, BEFORE_1)], {}));
    const { suppress: _, ...input } = person1;
    const batchId = await submitBatch(key, { items: [{ ...input, email: BEFORE_1 }] });
    await waitForCompletion(key, batchId);
    const sync = await runSync(key, { batchId, provider: "hubspot", match: "email", fields: { email: "overwrite" } });
    expect(sync.records[0]).toMatchObject({ recordId: "1001" });
    expect(await storedRecords(sync.id)).toContain(BEFORE_1);
    expect((await erase(key)).status).toBe(200);
    expect((await readSync(key, sync.id)).records[0]).toMatchObject({
      recordId: "1001",
      changes: [],
      erasedAt: expect.any(String),
    });
    expect(await storedRecords(sync.id)).not.toContain(BEFORE_1);
  });
});

describe("a batch's deletion and retention reach its syncs", () => {
  it("DELETE of the batch deletes every sync made from it (404, nothing stored), and the account forgets them", async () => {
    const { key, batchId, sync } = await synced({});
    const second = await runSync(key, { batchId, provider: "hubspot" });
    expect((await request(`/v2/test/person/contact-info/${batchId}`, { method: "DELETE", key })).status).toBe(204);
    for (const id of [sync.id, second.id]) {
      expect((await request(`/v2/test/crm-syncs/${id}`, { key })).status).toBe(404);
      const tables = await runInDurableObject(syncStub(env, id), (_, state) =>
        state.storage.sql.exec("SELECT name FROM sqlite_master WHERE name = 'records'").toArray(),
      );
      expect(tables).toEqual([]);
    }
    expect(await accountStub(env, ownerOf(key)).crmSyncsOf([batchId])).toEqual([]);
  });

  it("when the batch's retention ends, its syncs go with it", async () => {
    const { key, sync } = await synced({});
    const stub = syncStub(env, sync.id);
    // The batch completed a retention ago (RETENTION_SECONDS): its items are gone, and so is the sync.
    await runInDurableObject(stub, (_, state) =>
      state.storage.sql.exec("UPDATE sync SET batch_completed_at = '2020-01-01T00:00:00.000Z'"),
    );
    await runDurableObjectAlarm(stub);
    expect((await request(`/v2/test/crm-syncs/${sync.id}`, { key })).status).toBe(404);
  });
});
