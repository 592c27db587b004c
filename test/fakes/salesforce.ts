// Salesforce's REST API (v62.0), as its documentation describes it (developer.salesforce.com, read
// 2026-11), for the CRM tests: one org per access token, made by the test, answering on any
// *.salesforce.test instance host. Documented behaviour acted out:
// - GET /services/oauth2/userinfo → { organization_id (each org its own), user_id, … }.
// - An expired or revoked session: 401 [{ "message": "Session expired or invalid", "errorCode": "INVALID_SESSION_ID" }].
// - GET /services/data/v62.0/sobjects/Contact/listviews ("List Views for an Object") → { done, listviews: [{ id,
//   label, developerName, url, resultsUrl, describeUrl, soqlCompatible }], nextRecordsUrl: null, size }: the org's
//   list views (00B…; its reports, 00O…, are not list views), labelled as the test names them.
// - GET /services/data/v62.0/sobjects/Contact/listviews/{id}/results?limit (at most 2,000, else 400
//   INVALID_QUERY_PARAMETER_VALUE) → { records: [{ columns: [{ fieldNameOrPath, value }] }] };
//   an unknown list view → 404 [{ errorCode: "NOT_FOUND" }]. A SOQL statement over 100,000 characters → 400 MALFORMED_QUERY.
// - A token without access (test control /__fake/fault) → 403 [{ errorCode: "INSUFFICIENT_ACCESS_OR_READONLY" }].
// - GET /services/data/v62.0/analytics/reports/{id}: a Contacts report's detail rows (CONTACT_ID first);
//   its members are given as the test's listViews under the report's id (00O…).
// - GET /services/data/v62.0/query?q=: SOQL on Contact (by Id or Email, with Account.Name and Account.Website)
//   and ContactHistory (Field, CreatedById, newest first: field history tracking), → { totalSize, done, records }.
// - PATCH /services/data/v62.0/composite/sobjects { allOrNone: false, records }: at most 200 records
//   (else 400 EXCEEDED_ID_LIMIT); one result per record, in order; an Email another contact holds, under
//   the org's duplicate rule → that record { success: false, errors: [{ statusCode: "DUPLICATES_DETECTED" }] };
//   a field the integration user may not edit → INVALID_FIELD_FOR_INSERT_UPDATE for that record.
// Test controls (not Salesforce's): POST /__fake/orgs { token, contacts, listViews, listViewLabels, readOnly },
// /__fake/revoke, /__fake/edit { id, field, value } (a person edits in the app); GET /__fake/contacts/{token}/{id},
// /__fake/calls/{token}.
import { json } from "./answer.ts";

const API = "/services/data/v62.0";
const INTEGRATION_USER = "005000000000INTAAA";
const PERSON_USER = "005000000000PERAAA";
const COLLECTION_LIMIT = 200;

type Contact = Record<string, string | null> & { Id: string };
type History = { ContactId: string; Field: string; CreatedById: string; CreatedDate: string };
interface Org {
  contacts: Map<string, Contact>;
  accounts: Map<string, { Name: string; Website: string }>;
  history: History[];
  listViews: Map<string, string[]>;
  listViewLabels: Map<string, string>;
  readOnly: Set<string>;
  revoked: boolean;
  organizationId: string;
  noAccess: boolean;
  calls: Record<string, number>;
}
const orgs = new Map<string, Org>();
type SeedContact = {
  Id: string;
  fields: Record<string, string>;
  account?: { Name: string; Website: string };
  editedBy?: Record<string, "person">;
};

function setField(org: Org, contact: Contact, field: string, value: string, user: string) {
  contact[field] = value;
  contact.LastModifiedById = user;
  org.history.unshift({
    ContactId: contact.Id,
    Field: field,
    CreatedById: user,
    CreatedDate: new Date().toISOString(),
  });
}

async function control(request: Request, url: URL): Promise<Response> {
  const body = request.method === "POST" ? await request.json<Record<string, unknown>>() : {};
  const token = String(body.token ?? decodeURIComponent(url.pathname.split("/")[3] ?? ""));
  if (url.pathname === "/__fake/orgs") {
    const org: Org = {
      contacts: new Map(),
      accounts: new Map(),
      history: [],
      listViews: new Map(Object.entries((body.listViews ?? {}) as Record<string, string[]>)),
      listViewLabels: new Map(Object.entries((body.listViewLabels ?? {}) as Record<string, string>)),
      readOnly: new Set((body.readOnly ?? []) as string[]),
      revoked: false,
      organizationId: `00D${token.slice(-12)}`,
      noAccess: false,
      calls: {},
    };
    for (const seed of (body.contacts ?? []) as SeedContact[]) {
      const contact: Contact = { Id: seed.Id, LastModifiedById: INTEGRATION_USER };
      for (const [field, value] of Object.entries(seed.fields))
        setField(org, contact, field, value, seed.editedBy?.[field] ? PERSON_USER : INTEGRATION_USER);
      org.contacts.set(seed.Id, contact);
      if (seed.account) org.accounts.set(seed.Id, seed.account);
    }
    orgs.set(token, org);
    return json({ organization_id: org.organizationId });
  }
  const org = orgs.get(token);
  if (!org) return json({ error: "no such org" }, 404);
  if (url.pathname === "/__fake/revoke") org.revoked = true;
  else if (url.pathname === "/__fake/fault") org.noAccess = body.fault === "insufficient-access";
  else if (url.pathname === "/__fake/edit") {
    const contact = org.contacts.get(String(body.id));
    if (contact) setField(org, contact, String(body.field), String(body.value), PERSON_USER);
  } else if (url.pathname.startsWith("/__fake/contacts/"))
    return json(org.contacts.get(url.pathname.split("/")[4] ?? "") ?? null);
  else if (url.pathname.startsWith("/__fake/calls/")) return json(org.calls);
  return json({ ok: true });
}

const quoted = (list: string) =>
  [...list.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((match) => match[1]!.replace(/\\(.)/g, "$1"));

function query(org: Org, soql: string): Response {
  if (soql.length > 100_000)
    return json(
      [{ errorCode: "MALFORMED_QUERY", message: "SOQL statements cannot be longer than 100,000 characters." }],
      400,
    );
  const history = /FROM ContactHistory WHERE ContactId IN \(([^)]*)\) AND Field IN \(([^)]*)\)/.exec(soql);
  if (history) {
    const ids = new Set(quoted(history[1]!));
    const fields = new Set(quoted(history[2]!));
    const records = org.history
      .filter((entry) => ids.has(entry.ContactId) && fields.has(entry.Field))
      .map((entry) => ({ attributes: { type: "ContactHistory" }, ...entry }));
    return json({ totalSize: records.length, done: true, records });
  }
  const contacts = /^SELECT (.+) FROM Contact WHERE (Id|Email) IN \(([^)]*)\)$/.exec(soql);
  if (!contacts) return json([{ errorCode: "MALFORMED_QUERY", message: "unexpected query" }], 400);
  const fields = contacts[1]!.split(",").map((field) => field.trim());
  const keys = new Set(quoted(contacts[3]!).map((key) => key.toLowerCase()));
  const matches = [...org.contacts.values()].filter((contact) =>
    keys.has(String(contacts[2] === "Id" ? contact.Id : contact.Email).toLowerCase()),
  );
  const records = matches.map((contact) => {
    const record: Record<string, unknown> = { attributes: { type: "Contact" } };
    for (const field of fields) {
      if (field.startsWith("Account.")) record.Account = org.accounts.get(contact.Id) ?? null;
      else record[field] = contact[field] ?? null;
    }
    return record;
  });
  return json({ totalSize: records.length, done: true, records });
}

function update(
  org: Org,
  body: { allOrNone?: boolean; records?: (Record<string, string> & { id: string })[] },
): Response {
  const records = body.records ?? [];
  if (records.length > COLLECTION_LIMIT)
    return json(
      [
        {
          errorCode: "EXCEEDED_ID_LIMIT",
          message: `record limit reached. cannot submit more than ${COLLECTION_LIMIT} records into this call`,
        },
      ],
      400,
    );
  return json(
    records.map(({ attributes: _type, id, ...fields }) => {
      const contact = org.contacts.get(id);
      if (!contact)
        return {
          id,
          success: false,
          errors: [{ statusCode: "ENTITY_IS_DELETED", message: "entity is deleted", fields: [] }],
        };
      const locked = Object.keys(fields).find((field) => org.readOnly.has(field));
      if (locked)
        return {
          id,
          success: false,
          errors: [
            {
              statusCode: "INVALID_FIELD_FOR_INSERT_UPDATE",
              message: `Unable to create/update fields: ${locked}.`,
              fields: [locked],
            },
          ],
        };
      const email = fields.Email?.toLowerCase();
      if (email && [...org.contacts.values()].some((other) => other.Id !== id && other.Email?.toLowerCase() === email))
        return {
          id,
          success: false,
          errors: [{ statusCode: "DUPLICATES_DETECTED", message: "Use one of these records?", fields: [] }],
        };
      for (const [field, value] of Object.entries(fields)) setField(org, contact, field, value, INTEGRATION_USER);
      return { id, success: true, errors: [] };
    }),
  );
}

export async function salesforce(request: Request, url: URL): Promise<Response> {
  if (url.pathname.startsWith("/__fake/")) return control(request, url);
  const org = orgs.get((request.headers.get("authorization") ?? "").replace(/^Bearer /, ""));
  if (!org || org.revoked)
    return json([{ message: "Session expired or invalid", errorCode: "INVALID_SESSION_ID" }], 401);
  const call = `${request.method} ${url.pathname.replace(/listviews\/[^/]+/, "listviews/{id}")}`;
  org.calls[call] = (org.calls[call] ?? 0) + 1;
  if (url.pathname === "/services/oauth2/userinfo")
    return json({
      organization_id: org.organizationId,
      user_id: INTEGRATION_USER,
      preferred_username: "integration@acme.example",
    });
  if (url.pathname === `${API}/sobjects/Contact/listviews`) {
    const views = [...org.listViews.keys()].filter((id) => id.startsWith("00B"));
    const listviews = views.map((id) => ({
      describeUrl: `${API}/sobjects/Contact/listviews/${id}/describe`,
      developerName: `View_${id.slice(-4)}`,
      id,
      label: org.listViewLabels.get(id) ?? `View ${id}`,
      resultsUrl: `${API}/sobjects/Contact/listviews/${id}/results`,
      soqlCompatible: true,
      url: `${API}/sobjects/Contact/listviews/${id}`,
    }));
    return json({ done: true, listviews, nextRecordsUrl: null, size: listviews.length, sobjectType: "Contact" });
  }
  if (org.noAccess)
    return json(
      [{ errorCode: "INSUFFICIENT_ACCESS_OR_READONLY", message: "insufficient access rights on object id" }],
      403,
    );
  const listView = new RegExp(`^${API}/sobjects/Contact/listviews/([^/]+)/results$`).exec(url.pathname);
  if (listView) {
    const ids = org.listViews.get(listView[1]!);
    if (!ids) return json([{ errorCode: "NOT_FOUND", message: "The requested resource does not exist" }], 404);
    if (Number(url.searchParams.get("limit") ?? 25) > 2000)
      return json([{ errorCode: "INVALID_QUERY_PARAMETER_VALUE", message: "limit: maximum is 2000" }], 400);
    return json({
      done: true,
      size: ids.length,
      records: ids.map((id) => ({ columns: [{ fieldNameOrPath: "Id", value: id }] })),
    });
  }
  const report = new RegExp(`^${API}/analytics/reports/([^/]+)$`).exec(url.pathname);
  if (report) {
    const ids = org.listViews.get(report[1]!);
    if (!ids) return json([{ errorCode: "NOT_FOUND", message: "The requested resource does not exist" }], 404);
    const rows = ids.map((id) => ({
      dataCells: [
        { value: id, label: id },
        { value: "Person", label: "Person" },
      ],
    }));
    return json({ reportMetadata: { detailColumns: ["CONTACT_ID", "FIRST_NAME"] }, factMap: { "T!T": { rows } } });
  }
  if (url.pathname === `${API}/query`) return query(org, url.searchParams.get("q") ?? "");
  if (request.method === "PATCH" && url.pathname === `${API}/composite/sobjects`)
    return update(org, await request.json());
  return json([{ errorCode: "NOT_FOUND", message: "The requested resource does not exist" }], 404);
}
