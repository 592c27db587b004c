// The CRM tests' side of the fake CRMs (test/fakes/hubspot.ts): a portal of their own per test (one
// token each), its controls, and the API calls a CRM test makes (connect, a list submitted, a sync run).
import { expect } from "vitest";
import type { SyncPage } from "../src/crm/schemas";
import { createKey, request, submitBatch, until, waitForCompletion } from "./helpers";

const HUBSPOT = "https://hubspot.test";

export type SeedContact = { id: string; properties: Record<string, string>; sourceTypes?: Record<string, string> };

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** A HubSpot portal of the test's own; answers its token. */
export async function hubspotPortal(
  contacts: SeedContact[],
  lists: Record<string, string[]> = {},
  readOnly: string[] = [],
  listNames: Record<string, string> = {},
): Promise<string> {
  const token = `pat-na1-${crypto.randomUUID()}`;
  await post(`${HUBSPOT}/__fake/portals`, { token, contacts, lists, readOnly, listNames });
  return token;
}

/** A portal made whole by the test: a `generated` list of `count` members, a `tier` (professional: 190 calls per 10 s). */
export async function hubspotPortalWith(options: Record<string, unknown>): Promise<string> {
  const token = `pat-na1-${crypto.randomUUID()}`;
  await post(`${HUBSPOT}/__fake/portals`, { token, ...options });
  return token;
}

export const hubspotControl = (action: "revoke" | "throttle" | "edit" | "fault", body: Record<string, unknown>) =>
  post(`${HUBSPOT}/__fake/${action}`, body);

export async function hubspotContact(token: string, id: string) {
  return (await fetch(`${HUBSPOT}/__fake/contacts/${token}/${id}`)).json<{
    properties: Record<string, string>;
    history: Record<string, { value: string; sourceType: string }[]>;
  }>();
}

export async function hubspotCalls(token: string): Promise<Record<string, number>> {
  return (await fetch(`${HUBSPOT}/__fake/calls/${token}`)).json();
}

const SALESFORCE = "https://acme.salesforce.test";
export const SALESFORCE_INSTANCE = SALESFORCE;

export type SeedSalesforceContact = {
  Id: string;
  fields: Record<string, string>;
  account?: { Name: string; Website: string };
  editedBy?: Record<string, "person">;
};

/** A Salesforce org of the test's own; answers its access token. */
export async function salesforceOrg(
  contacts: SeedSalesforceContact[],
  listViews: Record<string, string[]> = {},
  listViewLabels: Record<string, string> = {},
) {
  const token = `00D000000000ORG!${crypto.randomUUID()}`;
  await post(`${SALESFORCE}/__fake/orgs`, { token, contacts, listViews, listViewLabels });
  return token;
}

export const salesforceControl = (action: "revoke" | "edit" | "fault", body: Record<string, unknown>) =>
  post(`${SALESFORCE}/__fake/${action}`, body);

export async function salesforceContact(token: string, id: string) {
  return (await fetch(`${SALESFORCE}/__fake/contacts/${encodeURIComponent(token)}/${id}`)).json<
    Record<string, string | null>
  >();
}

export async function salesforceCalls(token: string): Promise<Record<string, number>> {
  return (await fetch(`${SALESFORCE}/__fake/calls/${encodeURIComponent(token)}`)).json();
}

const json = (method: string, key: string, body: unknown) => ({
  method,
  key,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

export const connect = (key: string, provider: string, body: unknown) =>
  request(`/v2/test/integrations/${provider}`, json("PUT", key, body));

/** A key connected to the account `token` opens (a Salesforce org at SALESFORCE_INSTANCE): `key`, else a new one. */
export async function connectedKey(provider: "hubspot" | "salesforce", token: string, key?: string): Promise<string> {
  const connecting = key ?? (await createKey()).key;
  const body = provider === "salesforce" ? { token, instanceUrl: SALESFORCE_INSTANCE } : { token };
  expect((await connect(connecting, provider, body)).status).toBe(200);
  return connecting;
}

/**
 * The CRM tests' usual start: a HubSpot portal of the test's own holding `contacts`, its list `listId` of
 * `members` (all of them by default), connected to a new key and enriched as a batch, completed.
 */
export async function hubspotListEnriched(
  contacts: SeedContact[],
  listId: string,
  members = contacts.map((contact) => contact.id),
  readOnly: string[] = [],
) {
  const token = await hubspotPortal(contacts, { [listId]: members }, readOnly);
  const key = await connectedKey("hubspot", token);
  return { key, token, batchId: await enrichList(key, "hubspot", listId) };
}

/** Submits the list as a batch and waits for it; answers its id. */
export async function enrichList(key: string, provider: string, listId: string): Promise<string> {
  const batchId = await submitBatch(key, { source: { provider, listId } });
  await waitForCompletion(key, batchId);
  return batchId;
}

export const startSync = (key: string, body: Record<string, unknown>) =>
  request("/v2/test/crm-syncs", json("POST", key, body));

async function readSync(key: string, id: string, query = ""): Promise<SyncPage> {
  const response = await request(`/v2/test/crm-syncs/${id}${query}`, { key });
  if (response.status !== 200) throw new Error(`sync read answered ${response.status}: ${await response.text()}`);
  return response.json<SyncPage>();
}

/** Waits until the sync is no longer running (its alarm works through it). */
export const untilSynced = (key: string, id: string) =>
  until(() => readSync(key, id, "?limit=1000"), { what: `sync ${id} done`, done: (sync) => sync.status !== "running" });

/** Starts a sync and waits for it; answers it whole. */
export async function runSync(key: string, body: Record<string, unknown>): Promise<SyncPage> {
  const response = await startSync(key, body);
  if (response.status !== 202) throw new Error(`sync answered ${response.status}: ${await response.text()}`);
  return untilSynced(key, (await response.json<{ id: string }>()).id);
}

/** Undoes a sync and waits for the undo; answers it whole. */
export async function undoSync(key: string, id: string): Promise<SyncPage> {
  const response = await request(`/v2/test/crm-syncs/${id}/undo`, { method: "POST", key });
  if (response.status !== 202) throw new Error(`undo answered ${response.status}: ${await response.text()}`);
  return untilSynced(key, (await response.json<{ id: string }>()).id);
}

export async function applySync(key: string, id: string): Promise<SyncPage> {
  const response = await request(`/v2/test/crm-syncs/${id}/apply`, { method: "POST", key });
  if (response.status !== 202) throw new Error(`apply answered ${response.status}: ${await response.text()}`);
  return untilSynced(key, id);
}
