import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { syncStub } from "../../../src/crm/stub";
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
  salesforceContact,
  salesforceOrg,
  startSync,
  untilSynced,
} from "../../crm-fake";
import { createKey, expectProblem, request, until } from "../../helpers";

// A sync belongs to the CRM account it was previewed against (HubSpot's portal, Salesforce's org: record ids mean
// something only inside it): an apply on a connection now pointing to another portal is refused 409
// crm_account_changed, or, once started, ends with that code, and nothing is written there. An apply
// refused before it wrote anything (connection gone, token refused, account changed) leaves the
// preview applicable.

const UPDATE = "POST /crm/v3/objects/contacts/batch/update";
const contact = (n: number): SeedContact => ({
  id: String(1000 + n),
  properties: { firstname: `Person${n}`, lastname: "Example", website: `co${n}.example` },
});
const people = [contact(1), contact(2)];
const members = { "1": people.map((entry) => entry.id) };
const preview = { provider: "hubspot", fields: { email: "overwrite" } };

/** A key connected to portal A with a completed dry run of its list, and portal B holding the same record ids. */
async function previewedOnA() {
  const { key, token: portalA, batchId } = await hubspotListEnriched(people, "1");
  const portalB = await hubspotPortal(people, members);
  const sync = await runSync(key, { ...preview, batchId });
  expect(sync).toMatchObject({ status: "completed", counts: { updated: 2 } });
  return { key, portalA, portalB, batchId, sync };
}

const apply = (key: string, id: string) => request(`/v2/test/crm-syncs/${id}/apply`, { method: "POST", key });
const readSync = async (key: string, id: string) => (await request(`/v2/test/crm-syncs/${id}`, { key })).json();

describe("a sync belongs to one CRM account", () => {
  it("refuses an apply once the key is reconnected to another portal (409), writes nothing there, and applies on the first again", async () => {
    const { key, portalA, portalB, sync } = await previewedOnA();
    expect((await connect(key, "hubspot", { token: portalB })).status).toBe(200);
    const refused = await expectProblem(await apply(key, sync.id), 409, "crm_account_changed");
    expect(refused.detail).toMatch(/another hubspot account/);
    expect(await hubspotCalls(portalB)).not.toHaveProperty(UPDATE);
    expect((await hubspotContact(portalB, "1001")).properties.email).toBeUndefined();
    expect(await readSync(key, sync.id)).toMatchObject({ status: "completed", appliedAt: null });

    expect((await connect(key, "hubspot", { token: portalA })).status).toBe(200);
    expect(await applySync(key, sync.id)).toMatchObject({ status: "completed", counts: { updated: 2 } });
    expect((await hubspotContact(portalA, "1001")).properties.email).toBe("person1.example@co1.example");
    expect((await hubspotContact(portalB, "1001")).properties.email).toBeUndefined();
  });

  it("ends a started sync crm_account_changed when the connection moves to another portal under it", async () => {
    const { key, token: portalA, batchId } = await hubspotListEnriched(people, "1");
    const portalB = await hubspotPortal(people, members);
    // Portal A asks it to wait (429) at its first read; meanwhile the key is reconnected to B.
    await hubspotControl("throttle", { token: portalA, count: 1 });
    const started = await startSync(key, { ...preview, batchId, dryRun: false });
    const { id } = await started.json<{ id: string }>();
    const stub = syncStub(env, id);
    await until(
      () =>
        runInDurableObject(stub, (_, state) =>
          state.storage.sql.exec<{ waits: number }>("SELECT waits FROM sync").one(),
        ),
      { what: "the sync waiting", done: (row) => row.waits === 1 },
    );
    expect((await connect(key, "hubspot", { token: portalB })).status).toBe(200);
    await runDurableObjectAlarm(stub);
    const sync = await untilSynced(key, id);
    expect(sync).toMatchObject({ status: "failed", error: { code: "crm_account_changed" }, counts: { updated: 0 } });
    expect(await hubspotCalls(portalB)).toEqual({ "GET /account-info/v3/details": 1 });
  });
});

describe("an apply refused before it wrote anything leaves the preview applicable", () => {
  it("the connection gone: 409 crm_not_connected, the preview as it was; reconnected, it applies", async () => {
    const { key, portalA, sync } = await previewedOnA();
    expect((await request("/v2/test/integrations/hubspot", { method: "DELETE", key })).status).toBe(204);
    await expectProblem(await apply(key, sync.id), 409, "crm_not_connected");
    expect(await readSync(key, sync.id)).toMatchObject({ status: "completed", counts: { updated: 2 } });
    expect((await connect(key, "hubspot", { token: portalA })).status).toBe(200);
    expect((await applySync(key, sync.id)).counts.updated).toBe(2);
  });

  it("the token refused at the apply's first call: completed again, its error saying so; applies once the token is back", async () => {
    const { key, portalA, sync } = await previewedOnA();
    await hubspotControl("revoke", { token: portalA });
    const refused = await applySync(key, sync.id);
    expect(refused).toMatchObject({
      status: "completed",
      appliedAt: null,
      error: { code: "crm_unauthorized", message: expect.stringContaining("the preview can be applied again") },
      counts: { updated: 2 },
    });
    expect(refused.records.map((record) => record.changes[0]?.action)).toEqual(["write", "write"]);
    await hubspotControl("revoke", { token: portalA, revoked: false });
    const applied = await applySync(key, sync.id);
    expect(applied).toMatchObject({ status: "completed", error: null, counts: { updated: 2 } });
    expect(applied.appliedAt).toEqual(expect.any(String));
    expect((await hubspotContact(portalA, "1002")).properties.email).toBe("person2.example@co2.example");
  });
});

describe("a Salesforce sync belongs to its org", () => {
  it("refuses an apply once the key is reconnected to another org (409), writing nothing there", async () => {
    const { key } = await createKey();
    const contactId = "003000000000001AAA";
    const seed = [
      {
        Id: contactId,
        fields: { FirstName: "Person1", LastName: "Example" },
        account: { Name: "Co", Website: "co1.example" },
      },
    ];
    const view = { "00B000000000001AAA": [contactId] };
    const [orgA, orgB] = [await salesforceOrg(seed, view), await salesforceOrg(seed, view)];
    expect((await connect(key, "salesforce", { token: orgA, instanceUrl: SALESFORCE_INSTANCE })).status).toBe(200);
    const batchId = await enrichList(key, "salesforce", "00B000000000001AAA");
    const sync = await runSync(key, { batchId, provider: "salesforce", fields: { email: "overwrite" } });
    expect(sync).toMatchObject({ status: "completed", counts: { updated: 1 } });
    expect((await connect(key, "salesforce", { token: orgB, instanceUrl: SALESFORCE_INSTANCE })).status).toBe(200);
    await expectProblem(await apply(key, sync.id), 409, "crm_account_changed");
    expect((await salesforceContact(orgB, contactId)).Email ?? null).toBeNull();
  });
});
