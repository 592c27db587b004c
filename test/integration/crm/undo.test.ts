import { describe, expect, it } from "vitest";
import type { SyncPage } from "../../../src/crm/schemas";
import {
  applySync,
  connect,
  enrichList,
  hubspotCalls,
  hubspotContact,
  hubspotControl,
  hubspotListEnriched,
  hubspotPortal,
  runSync,
  SALESFORCE_INSTANCE,
  type SeedContact,
  salesforceCalls,
  salesforceContact,
  salesforceControl,
  salesforceOrg,
  undoSync,
  untilSynced,
} from "../../crm-fake";
import { createKey, request } from "../../helpers";

// Undoing a write-back (POST …/crm-syncs/{id}/undo) against the fake CRMs (test/fakes/hubspot.ts, salesforce.ts):
// each property written goes back to its value from before, a blank included; one changed since is left.

const UPDATE = "POST /crm/v3/objects/contacts/batch/update";
const PATCH = "PATCH /services/data/v62.0/composite/sobjects";

const people: SeedContact[] = [
  { id: "101", properties: { firstname: "Ada", lastname: "Lovelace", website: "analytical.example" } },
  {
    id: "102",
    properties: { firstname: "Grace", lastname: "Hopper", website: "navy.example", email: "grace@old.example" },
  },
  {
    id: "103",
    properties: { firstname: "Alan", lastname: "Turing", website: "bletchley.example", email: "alan@old.example" },
  },
  { id: "104", properties: { firstname: "Edsger", lastname: "Dijkstra", website: "eindhoven.example" } },
];

const undo = (key: string, id: string) => request(`/v2/test/crm-syncs/${id}/undo`, { method: "POST", key });
const usedCredits = async (key: string) =>
  (await (await request("/v2/test/me/usage", { key })).json<{ totals: { credits: number } }>()).totals.credits;
const recordOf = (sync: SyncPage, recordId: string) => sync.records.find((entry) => entry.recordId === recordId);

async function hubspotApplied() {
  const { key, token, batchId } = await hubspotListEnriched(people, "7");
  const preview = await runSync(key, { batchId, provider: "hubspot", fields: { email: "overwrite" } });
  expect(preview.counts.updated).toBe(4);
  const applied = await applySync(key, preview.id);
  expect(applied.counts).toMatchObject({ updated: 4, failed: 0 });
  return { key, token, applied };
}

describe("undoing a HubSpot write-back", () => {
  it("restores each value from before (a blank included), leaves what was changed since, and charges nothing", async () => {
    const { key, token, applied } = await hubspotApplied();
    const written = (id: string) => recordOf(applied, id)?.changes[0]?.after;
    // After the write: an integration replaced 103's address, a person re-typed 104's (the same value).
    await hubspotControl("edit", { token, id: "103", property: "email", value: "alan@crm.example", sourceType: "API" });
    await hubspotControl("edit", { token, id: "104", property: "email", value: written("104") });
    const credits = await usedCredits(key);

    const response = await undo(key, applied.id);
    expect(response.status).toBe(202);
    const started = await response.json<{ id: string }>();
    expect(response.headers.get("location")).toBe(`/v2/test/crm-syncs/${started.id}`);
    expect(started.id).not.toBe(applied.id);
    const sync = await untilSynced(key, started.id);

    expect(sync).toMatchObject({ status: "completed", dryRun: false, undoOf: applied.id, error: null });
    expect(recordOf(sync, "101")?.changes[0]).toMatchObject({ before: written("101"), after: null, action: "write" });
    expect((await hubspotContact(token, "101")).properties.email).toBe("");
    expect(recordOf(sync, "102")?.changes[0]).toMatchObject({ after: "grace@old.example", action: "write" });
    expect((await hubspotContact(token, "102")).properties.email).toBe("grace@old.example");
    for (const [id, now] of [
      ["103", "alan@crm.example"],
      ["104", written("104")],
    ])
      expect(recordOf(sync, id ?? "")?.changes[0]).toMatchObject({
        before: now,
        action: "skip",
        reason: "changed_since_apply",
      });
    expect((await hubspotContact(token, "103")).properties.email).toBe("alan@crm.example");
    expect(sync.counts).toEqual({ updated: 2, unchanged: 0, skipped: 2, failed: 0 });
    expect(await usedCredits(key)).toBe(credits);
  });

  it("undoes once, an apply repeated included: again is 409 crm_sync_not_undoable and writes nothing", async () => {
    const { key, token, applied } = await hubspotApplied();
    // Applied twice: the second finds its values there (unchanged), yet the undo restores what the first wrote.
    expect((await applySync(key, applied.id)).counts).toMatchObject({ updated: 0, unchanged: 4 });
    const first = await undoSync(key, applied.id);
    expect(first.counts.updated).toBe(4);
    const updates = (await hubspotCalls(token))[UPDATE];

    const again = await undo(key, applied.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "crm_sync_not_undoable" });
    expect((await undo(key, first.id)).status).toBe(409);
    expect((await request(`/v2/test/crm-syncs/${applied.id}/apply`, { method: "POST", key })).status).toBe(409);
    expect(await (await request(`/v2/test/crm-syncs/${applied.id}`, { key })).json()).toMatchObject({
      undoneBy: first.id,
    });
    expect((await hubspotCalls(token))[UPDATE]).toBe(updates);
  });

  it("refuses a dry run never applied, and answers another customer's sync 404", async () => {
    const { key, applied } = await hubspotApplied();
    const other = (await createKey()).key;
    const theirs = await undo(other, applied.id);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toMatchObject({ code: "not_found" });
    expect((await undo(key, crypto.randomUUID())).status).toBe(404);

    const preview = await runSync(key, { batchId: applied.batchId, provider: "hubspot" });
    const notApplied = await undo(key, preview.id);
    expect(notApplied.status).toBe(409);
    expect(await notApplied.json()).toMatchObject({ code: "crm_sync_not_undoable" });
    // The original is still undoable by its owner.
    expect((await undo(key, applied.id)).status).toBe(202);
  });

  it("an undo that failed (the token refused) may be tried again, and then restores", async () => {
    const { key, token, applied } = await hubspotApplied();
    await hubspotControl("revoke", { token });
    const failed = await undoSync(key, applied.id);
    expect(failed).toMatchObject({ status: "failed", error: { code: "crm_unauthorized" } });
    await hubspotControl("revoke", { token, revoked: false });
    const retried = await undoSync(key, applied.id);
    expect(retried).toMatchObject({ status: "completed", undoOf: applied.id, counts: { updated: 4 } });
    expect((await hubspotContact(token, "102")).properties.email).toBe("grace@old.example");
    expect((await undo(key, applied.id)).status).toBe(409);
  });

  it("binds to the CRM account written to: another portal is 409 crm_account_changed", async () => {
    const { key, applied } = await hubspotApplied();
    const elsewhere = await hubspotPortal(people);
    expect((await connect(key, "hubspot", { token: elsewhere })).status).toBe(200);
    const moved = await undo(key, applied.id);
    expect(moved.status).toBe(409);
    expect(await moved.json()).toMatchObject({ code: "crm_account_changed" });
  });
});

describe("undoing a Salesforce write-back", () => {
  const id = (n: number) => `003000000000${String(n).padStart(3, "0")}AAA`;
  const contact = (n: number, fields: Record<string, string> = {}) => ({
    Id: id(n),
    fields: { FirstName: `Person${n}`, LastName: "Example", ...fields },
    account: { Name: `Company ${n}`, Website: `co${n}.example` },
  });

  it("restores the fields it wrote (a blank as null), and leaves one a person changed since (field history)", async () => {
    const { key } = await createKey();
    const token = await salesforceOrg([contact(1), contact(2, { Email: "p2@old.example" }), contact(3)], {
      "00B000000000001AAA": [id(1), id(2), id(3)],
    });
    await connect(key, "salesforce", { token, instanceUrl: SALESFORCE_INSTANCE });
    const batchId = await enrichList(key, "salesforce", "00B000000000001AAA");
    const written = await runSync(key, {
      batchId,
      provider: "salesforce",
      fields: { email: "overwrite" },
      dryRun: false,
    });
    expect(written.counts).toMatchObject({ updated: 3 });
    const wrote3 = recordOf(written, id(3))?.changes[0]?.after;
    await salesforceControl("edit", { token, id: id(3), field: "Email", value: wrote3 });
    const credits = await usedCredits(key);
    const patches = (await salesforceCalls(token))[PATCH] ?? 0;

    const sync = await undoSync(key, written.id);
    expect(sync).toMatchObject({ status: "completed", undoOf: written.id });
    expect((await salesforceContact(token, id(1))).Email).toBeNull();
    expect((await salesforceContact(token, id(2))).Email).toBe("p2@old.example");
    expect(recordOf(sync, id(3))?.changes[0]).toMatchObject({ action: "skip", reason: "changed_since_apply" });
    expect((await salesforceContact(token, id(3))).Email).toBe(wrote3);
    expect(sync.counts).toEqual({ updated: 2, unchanged: 0, skipped: 1, failed: 0 });
    expect((await salesforceCalls(token))[PATCH]).toBe(patches + 1);
    expect(await usedCredits(key)).toBe(credits);

    const again = await undo(key, written.id);
    expect(await again.json()).toMatchObject({ code: "crm_sync_not_undoable" });
    expect((await salesforceCalls(token))[PATCH]).toBe(patches + 1);
    expect((await undo((await createKey()).key, written.id)).status).toBe(404);
  });
});
