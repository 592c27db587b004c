import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../src/base/config";
import type { SyncPage } from "../../../src/crm/schemas";
import { syncStub } from "../../../src/crm/stub";
import {
  applySync,
  hubspotCalls,
  hubspotContact,
  hubspotControl,
  hubspotListEnriched,
  runSync,
  type SeedContact,
} from "../../crm-fake";
import { createKey, getStatus, request, setClockAhead } from "../../helpers";

// A HubSpot list in, its results back out under each rule, previewed first (the fake: test/fakes/hubspot.ts).

const UPDATE = "POST /crm/v3/objects/contacts/batch/update";

// People the sandbox finds an email for (and a phone for some), each a HubSpot contact in list "7".
const people: SeedContact[] = [
  { id: "101", properties: { firstname: "Ada", lastname: "Lovelace", website: "analytical.example" } },
  {
    id: "102",
    properties: { firstname: "Grace", lastname: "Hopper", website: "navy.example", email: "grace@old.example" },
  },
  {
    id: "103",
    properties: { firstname: "Alan", lastname: "Turing", website: "bletchley.example", email: "alan@typed.example" },
    sourceTypes: { email: "CRM_UI" },
  },
  { id: "104", properties: { firstname: "No", lastname: "Body", website: "notfound.test" } },
];

async function listed(contacts = people) {
  return hubspotListEnriched(contacts, "7");
}

const record = (sync: SyncPage, recordId: string) => sync.records.find((entry) => entry.recordId === recordId);
const change = (sync: SyncPage, recordId: string, field = "email") =>
  record(sync, recordId)?.changes.find((entry) => entry.field === field);

describe("a HubSpot list in", () => {
  it("becomes a batch whose items carry the record ids as externalId", async () => {
    const { key, batchId } = await listed();
    const batch = await getStatus(key, batchId);
    expect(batch.items.map((item) => [item.externalId, item.input.firstName])).toEqual([
      ["101", "Ada"],
      ["102", "Grace"],
      ["103", "Alan"],
      ["104", "No"],
    ]);
    expect(batch.items[0]?.input).toMatchObject({ lastName: "Lovelace", companyDomain: "analytical.example" });
  });

  it("answers a problem for an unknown list, and for a CRM not connected", async () => {
    const { key, token } = await listed(people.slice(0, 1));
    const submit = (listId: string) =>
      request("/v2/test/person/contact-info", {
        method: "POST",
        key,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ source: { provider: "hubspot", listId } }),
      });
    expect((await submit("999")).status).toBe(422);
    await request("/v2/test/integrations/hubspot", { method: "DELETE", key });
    expect((await submit("7")).status).toBe(409);
    expect(token).toBeTruthy();
  });
});

describe("a HubSpot sync out", () => {
  it("previews by rule and writes nothing: fill_empty, overwrite, skip_if_edited_by_user", async () => {
    const { key, token, batchId } = await listed();
    const sync = await runSync(key, {
      batchId,
      provider: "hubspot",
      fields: { email: "skip_if_edited_by_user" },
    });
    expect(sync).toMatchObject({ status: "completed", dryRun: true, appliedAt: null, error: null });
    // Empty: written. Set by an import: replaced. Typed by a person in the app (CRM_UI): left.
    expect(change(sync, "101")).toMatchObject({ before: null, action: "write", rule: "skip_if_edited_by_user" });
    expect(change(sync, "102")).toMatchObject({ before: "grace@old.example", action: "write" });
    expect(change(sync, "103")).toMatchObject({
      before: "alan@typed.example",
      action: "skip",
      reason: "edited_by_user",
    });
    expect(sync.records.find((entry) => entry.index === 3)).toMatchObject({
      outcome: "skipped",
      reason: "nothing_found",
    });
    expect(sync.counts).toEqual({ updated: 2, unchanged: 0, skipped: 2, failed: 0 });
    expect((await hubspotCalls(token))[UPDATE]).toBeUndefined();

    const fillEmpty = await runSync(key, { batchId, provider: "hubspot", fields: { email: "fill_empty" } });
    expect(change(fillEmpty, "102")).toMatchObject({ action: "skip", reason: "not_empty" });
    const overwrite = await runSync(key, { batchId, provider: "hubspot", fields: { email: "overwrite" } });
    expect(change(overwrite, "103")).toMatchObject({ action: "write" });
  });

  it("applies exactly the preview, leaves a record changed since, and never writes twice", async () => {
    const { key, token, batchId } = await listed();
    const preview = await runSync(key, { batchId, provider: "hubspot", fields: { email: "overwrite" } });
    expect(preview.counts.updated).toBe(3);
    await hubspotControl("edit", { token, id: "102", property: "email", value: "grace@rep.example" });

    const applied = await applySync(key, preview.id);
    expect(applied).toMatchObject({ status: "completed", appliedAt: expect.any(String) });
    expect(change(applied, "102")).toMatchObject({ action: "skip", reason: "changed_since_preview" });
    expect((await hubspotContact(token, "102")).properties.email).toBe("grace@rep.example");
    expect((await hubspotContact(token, "101")).properties.email).toBe(change(preview, "101")?.after);
    expect((await hubspotContact(token, "103")).history.email?.[0]?.sourceType).toBe("INTEGRATION");
    expect(applied.counts).toEqual({ updated: 2, unchanged: 0, skipped: 2, failed: 0 });
    const updates = (await hubspotCalls(token))[UPDATE] ?? 0;
    expect(updates).toBe(1);

    // Again: the values are there, so nothing is sent.
    const again = await applySync(key, preview.id);
    expect(again.counts).toMatchObject({ updated: 0, unchanged: 2 });
    const repeat = await runSync(key, { batchId, provider: "hubspot", fields: { email: "overwrite" }, dryRun: false });
    expect(repeat.counts).toMatchObject({ updated: 1, unchanged: 2 });
    expect(change(repeat, "102")).toMatchObject({ before: "grace@rep.example", action: "write" });
    const norepeat = await runSync(key, {
      batchId,
      provider: "hubspot",
      fields: { email: "overwrite" },
      dryRun: false,
    });
    expect(norepeat.counts).toMatchObject({ updated: 0, unchanged: 3 });
    expect((await hubspotCalls(token))[UPDATE]).toBe(updates + 1);
  });

  it("keeps a finished sync for the batches' retention, then deletes it", async () => {
    const { key, batchId } = await listed(people.slice(0, 1));
    const sync = await runSync(key, { batchId, provider: "hubspot" });
    const stub = syncStub(env, sync.id);
    setClockAhead(readConfig(env).retentionSeconds * 1000 + 1000);
    try {
      await runDurableObjectAlarm(stub);
    } finally {
      vi.useRealTimers();
    }
    expect((await request(`/v2/test/crm-syncs/${sync.id}`, { key })).status).toBe(404);
  });

  it("answers another customer's sync and a guessed id alike, 404, and a guess leaves no storage", async () => {
    const { key, batchId } = await listed(people.slice(0, 1));
    const sync = await runSync(key, { batchId, provider: "hubspot" });
    const other = (await createKey()).key;
    expect((await request(`/v2/test/crm-syncs/${sync.id}`, { key: other })).status).toBe(404);
    expect((await request(`/v2/test/crm-syncs/${sync.id}/apply`, { method: "POST", key: other })).status).toBe(404);
    const guess = crypto.randomUUID();
    expect((await request(`/v2/test/crm-syncs/${guess}`, { key })).status).toBe(404);
    const tables = await runInDurableObject(syncStub(env, guess), (_, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray(),
    );
    expect(tables).toEqual([]);
  });
});
