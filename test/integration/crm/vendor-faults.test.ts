import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { syncStub } from "../../../src/crm/stub";
import {
  connectedKey,
  hubspotCalls,
  hubspotControl,
  hubspotPortalWith,
  salesforceControl,
  salesforceOrg,
  startSync,
  untilSynced,
} from "../../crm-fake";
import { expectProblem, request, submit, submitBatch, until, waitForCompletion } from "../../helpers";

// A CRM's fault said as one, and every paged read ending (the fake HubSpot misbehaving as
// test/fakes/hubspot-faults.ts sets it): an HTML page, an unknown shape, a body that stalls or trickles
// past CRM_TIMEOUT_MS, pages without end are a 502 crm_bad_answer with Retry-After naming the CRM, never
// the customer's scopes; those are named only when the CRM says a scope is missing.

const MEMBERSHIPS = "GET /crm/v3/lists/{listId}/memberships";
const members = ["1001", "1002", "1003"];
const contacts = members.map((id, n) => ({
  id,
  properties: { firstname: `Person${n}`, lastname: "Example", website: `co${n}.example` },
}));

async function faultyPortal(fault: string) {
  const token = await hubspotPortalWith({ contacts, lists: { "7": members }, tier: "professional" });
  const key = await connectedKey("hubspot", token);
  await hubspotControl("fault", { token, fault });
  return { key, token };
}

const submitList = (key: string) => submit(key, { source: { provider: "hubspot", listId: "7" } });
const readLists = (key: string) => request("/v2/test/integrations/hubspot/lists", { key });

async function expectVendorFault(response: Response) {
  const body = await expectProblem(response, 502, "crm_bad_answer");
  expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(body.detail).toMatch(/^hubspot /);
  expect(body.detail).not.toMatch(/scope/i);
}

describe("a CRM's fault is said as one", () => {
  for (const fault of ["html", "shape"])
    it(`${fault}: a submit from a list and the list of lists are a 502 naming HubSpot, with Retry-After`, async () => {
      const { key } = await faultyPortal(fault);
      await expectVendorFault(await submitList(key));
      await expectVendorFault(await readLists(key));
    });

  for (const fault of ["stall", "trickle"])
    it(`${fault}: a body not finished within CRM_TIMEOUT_MS is a 502 naming HubSpot, with Retry-After`, async () => {
      const { key } = await faultyPortal(fault);
      await expectVendorFault(await submitList(key));
    });

  it("names the token's scopes only when HubSpot says a scope is missing (MISSING_SCOPES)", async () => {
    const missing = await faultyPortal("missing-scopes");
    const scopes = await expectProblem(await readLists(missing.key), 422, "crm_refused");
    expect(scopes.detail).toMatch(/scope/);
    const forbidden = await faultyPortal("forbidden");
    const plain = await expectProblem(await submitList(forbidden.key), 422, "crm_refused");
    expect(plain.detail).not.toMatch(/scope/i);
  });

  it("names the token's scopes when Salesforce says INSUFFICIENT_ACCESS…", async () => {
    const token = await salesforceOrg([], { "00B000000000001AAA": [] });
    const key = await connectedKey("salesforce", token);
    await salesforceControl("fault", { token, fault: "insufficient-access" });
    const answer = await submit(key, { source: { provider: "salesforce", listId: "00B000000000001AAA" } });
    expect((await expectProblem(answer, 422, "crm_refused")).detail).toMatch(/scope/);
  });
});

describe("a sync meeting HubSpot's fault", () => {
  it("waits it out as HubSpot's, never failing crm_refused", async () => {
    const token = await hubspotPortalWith({ contacts, lists: { "7": members } });
    const key = await connectedKey("hubspot", token);
    const batchId = await submitBatch(key, { source: { provider: "hubspot", listId: "7" } });
    await waitForCompletion(key, batchId);
    await hubspotControl("fault", { token, fault: "html" });
    const started = await startSync(key, { batchId, provider: "hubspot" });
    const { id } = await started.json<{ id: string }>();
    const waiting = await until(
      () =>
        runInDurableObject(syncStub(env, id), async (_, state) => ({
          ...state.storage.sql.exec<{ waits: number; status: string }>("SELECT waits, status FROM sync").one(),
          alarm: await state.storage.getAlarm(),
        })),
      { what: "the sync waiting", done: (row) => row.waits === 1 },
    );
    expect(waiting).toMatchObject({ status: "running", alarm: expect.any(Number) });
    expect(waiting.alarm).toBeGreaterThan(Date.now() + 5_000);
    await hubspotControl("fault", { token, fault: null });
    await runDurableObjectAlarm(syncStub(env, id));
    expect(await untilSynced(key, id)).toMatchObject({ status: "completed", counts: { updated: 3 } });
  });
});

describe("every paged read ends", () => {
  it("stops at an empty page that still names a next one, keeping the members read", async () => {
    const { key, token } = await faultyPortal("endless-empty");
    const batchId = await submitBatch(key, { source: { provider: "hubspot", listId: "7" } });
    const batch = await waitForCompletion(key, batchId);
    expect(batch.items.map((item) => item.externalId)).toEqual(members);
    expect((await hubspotCalls(token))[MEMBERSHIPS]).toBe(2);
  });

  it("a cursor given twice is HubSpot's fault, after two pages", async () => {
    const { key, token } = await faultyPortal("repeat-cursor");
    await expectVendorFault(await submitList(key));
    expect((await hubspotCalls(token))[MEMBERSHIPS]).toBe(2);
  });

  it("pages that never end are cut off at the cap a batch's size gives (10,001 members fill 41 pages: 83)", async () => {
    const { key, token } = await faultyPortal("endless-short");
    await expectVendorFault(await submitList(key));
    expect((await hubspotCalls(token))[MEMBERSHIPS]).toBe(83);
  });
});
