import { describe, expect, it } from "vitest";
import type { SyncPage } from "../../../src/crm/schemas";
import {
  applySync,
  connect,
  enrichList,
  runSync,
  SALESFORCE_INSTANCE,
  type SeedSalesforceContact,
  salesforceCalls,
  salesforceContact,
  salesforceControl,
  salesforceOrg,
} from "../../crm-fake";
import { createKey, getStatus } from "../../helpers";

// A Salesforce list view in, its results back out, previewed first (the fake: test/fakes/salesforce.ts).

const PATCH = "PATCH /services/data/v62.0/composite/sobjects";
const id = (n: number) => `003000000000${String(n).padStart(3, "0")}AAA`;
const contact = (
  n: number,
  fields: Record<string, string> = {},
  editedBy?: Record<string, "person">,
): SeedSalesforceContact => ({
  Id: id(n),
  fields: { FirstName: `Person${n}`, LastName: "Example", ...fields },
  account: { Name: `Company ${n}`, Website: `co${n}.example` },
  ...(editedBy ? { editedBy } : {}),
});

async function listed(contacts: SeedSalesforceContact[]) {
  const { key } = await createKey();
  const token = await salesforceOrg(contacts, { "00B000000000001AAA": contacts.map((entry) => entry.Id) });
  const connected = await connect(key, "salesforce", { token, instanceUrl: SALESFORCE_INSTANCE });
  expect(connected.status).toBe(200);
  expect(await connected.json()).toMatchObject({
    provider: "salesforce",
    accountId: expect.stringMatching(/^00D\w{12}$/),
  });
  return { key, token, batchId: await enrichList(key, "salesforce", "00B000000000001AAA") };
}

const change = (sync: SyncPage, n: number) => sync.records.find((entry) => entry.recordId === id(n))?.changes[0];

describe("Salesforce in and out", () => {
  it("enriches a list view, previews by rule (field history), applies as previewed, and never writes twice", async () => {
    const { key, token, batchId } = await listed([
      contact(1),
      contact(2, { Email: "p2@old.example" }),
      contact(3, { Email: "p3@typed.example" }, { Email: "person" }),
    ]);
    const batch = await getStatus(key, batchId);
    expect(batch.items.map((item) => item.externalId)).toEqual([id(1), id(2), id(3)]);
    expect(batch.items[0]?.input).toMatchObject({
      firstName: "Person1",
      companyName: "Company 1",
      companyDomain: "co1.example",
    });

    const preview = await runSync(key, {
      batchId,
      provider: "salesforce",
      fields: { email: "skip_if_edited_by_user" },
    });
    expect(change(preview, 1)).toMatchObject({ property: "Email", before: null, action: "write" });
    expect(change(preview, 2)).toMatchObject({ before: "p2@old.example", action: "write" });
    expect(change(preview, 3)).toMatchObject({ action: "skip", reason: "edited_by_user" });
    expect(await salesforceCalls(token)).not.toHaveProperty(PATCH);

    await salesforceControl("edit", { token, id: id(2), field: "Email", value: "p2@rep.example" });
    const applied = await applySync(key, preview.id);
    expect(change(applied, 2)).toMatchObject({ action: "skip", reason: "changed_since_preview" });
    expect((await salesforceContact(token, id(2))).Email).toBe("p2@rep.example");
    expect((await salesforceContact(token, id(1))).Email).toBe(change(preview, 1)?.after);
    expect(applied.counts).toMatchObject({ updated: 1, skipped: 2 });

    const again = await applySync(key, preview.id);
    expect(again.counts).toMatchObject({ updated: 0, unchanged: 1 });
    expect((await salesforceCalls(token))[PATCH]).toBe(1);
  });

  it("writes 200 records a call with allOrNone false, a duplicate-rule block failing its record alone", async () => {
    const people = Array.from({ length: 210 }, (_, n) => contact(n + 1));
    // Person2's found address is already another contact's: the org's duplicate rule blocks it.
    people.push({
      ...contact(999),
      fields: { FirstName: "Other", LastName: "Holder", Email: "person2.example@co2.example" },
    });
    const { key, token, batchId } = await listed(people);
    const sync = await runSync(key, {
      batchId,
      provider: "salesforce",
      fields: { email: "fill_empty" },
      dryRun: false,
    });
    expect(sync.records.find((record) => record.recordId === id(2))).toMatchObject({
      outcome: "failed",
      error: { code: "DUPLICATES_DETECTED" },
    });
    expect(sync.counts).toMatchObject({ updated: 209, failed: 1 });
    expect((await salesforceCalls(token))[PATCH]).toBe(2);
  });

  it("takes a Contacts report as the list too", async () => {
    const { key } = await createKey();
    const token = await salesforceOrg([contact(1), contact(2)], { "00O000000000001AAA": [id(2), id(1), id(2)] });
    await connect(key, "salesforce", { token, instanceUrl: SALESFORCE_INSTANCE });
    const batch = await getStatus(key, await enrichList(key, "salesforce", "00O000000000001AAA"));
    expect(batch.items.map((item) => item.externalId)).toEqual([id(2), id(1)]);
  });

  it("fails crm_unauthorized on INVALID_SESSION_ID, saying to reconnect", async () => {
    const { key, token, batchId } = await listed([contact(1)]);
    await salesforceControl("revoke", { token });
    const sync = await runSync(key, { batchId, provider: "salesforce", dryRun: false });
    expect(sync).toMatchObject({ status: "failed", error: { code: "crm_unauthorized" }, counts: { updated: 0 } });
  });
});
