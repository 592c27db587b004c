import * as z from "zod";
import { once } from "../base/once";
import type { CrmClient, CrmConnection, CrmDeclaration, CrmMember, CrmRecord, UpdateResults } from "./crm";
import { badAnswer, type CrmCall, crmFetch, crmShape, readPages } from "./crm-http";

// Salesforce's REST API (v62.0), as documented (developer.salesforce.com, 2026-11):
// - GET {instanceUrl}/services/oauth2/userinfo → { organization_id, user_id }: checks the access token.
// - GET …/sobjects/Contact/listviews → { listviews: [{ id, label }], nextRecordsUrl? } ("List Views for an Object").
// - GET …/sobjects/Contact/listviews/{id}/results → { records: [{ columns: [{ fieldNameOrPath, value }] }] }.
// - GET …/analytics/reports/{id}?includeDetails=true (a Contacts report) → { reportMetadata: { detailColumns },
//   factMap: { "T!T": { rows: [{ dataCells: [{ value, label }] }] } } }: the CONTACT_ID column names the members.
// - GET …/query?q= (SOQL) → { totalSize, done, records, nextRecordsUrl }: up to 2,000 records a page (fewer
//   when the records are large), the next page at nextRecordsUrl (…/query/{queryLocator}) until done; Contacts by Id or Email (with Account.Name and
//   Account.Website for a list's members), and ContactHistory (field history tracking) for who changed
//   Email and Phone last; without history tracking, LastModifiedById stands in for the whole record.
// - PATCH …/composite/sobjects { allOrNone: false, records } (sObject Collections, at most 200 records) →
//   one result per record, in order: { id, success, errors: [{ statusCode, message, fields }] };
//   a duplicate rule that blocks answers DUPLICATES_DETECTED for that record alone.
// - An expired or revoked session is 401 [{ errorCode: "INVALID_SESSION_ID" }]. Limits: a daily API
//   request allocation per org, and at most 25 long-running requests at once; no per-second window.

const API = "/services/data/v62.0";
const BATCH_SIZE = 200;
const PROPERTIES = { email: "Email", phone: "Phone" } as const;
const MEMBER_FIELDS = { FirstName: "firstName", LastName: "lastName", Email: "email" } as const;
const SALESFORCE_ID = /^[a-zA-Z0-9]{15,18}$/;

const userInfoSchema = once(() => z.object({ organization_id: z.string(), user_id: z.string() }));
const contactSchema = once(() =>
  z
    .object({
      Id: z.string(),
      LastModifiedById: z.string().nullish(),
      Account: z.object({ Name: z.string().nullish(), Website: z.string().nullish() }).nullish(),
    })
    .catchall(z.unknown()),
);
const queryResultSchema = <T extends z.ZodType>(record: T) =>
  z.object({ records: z.array(record), done: z.boolean().default(true), nextRecordsUrl: z.string().nullish() });
// Where Salesforce's next page of a query is: its own query locator, on this instance.
const QUERY_LOCATOR = new RegExp(`^${API.replace(/\./g, "\\.")}/query/[\\w-]{1,100}$`);
// A page holds at least this many records (Query Options' smallest batch size): what bounds a query's pages.
const QUERY_MIN_PAGE = 200;
// The newest field history entries a sync reads for a step's records; older edits fall back to LastModifiedById.
const HISTORY_LIMIT = 2000;
const historySchema = once(() => z.object({ ContactId: z.string(), Field: z.string(), CreatedById: z.string() }));
const listViewSchema = once(() =>
  z.object({
    records: z.array(
      z.object({ columns: z.array(z.object({ fieldNameOrPath: z.string(), value: z.string().nullish() })) }),
    ),
  }),
);
const listViewsSchema = once(() =>
  z.object({
    listviews: z.array(z.object({ id: z.string(), label: z.string() })),
    nextRecordsUrl: z.string().nullish(),
  }),
);
// Our cursor into the list views: Salesforce's page (its path) and how many of it were already given.
const LIST_VIEWS = `${API}/sobjects/Contact/listviews`;
const LIST_VIEWS_CURSOR = new RegExp(`^(${LIST_VIEWS.replace(/\./g, "\\.")}(?:[/?][\\w=&/-]*)?)#(\\d{1,6})$`);
const saveResultsSchema = once(() =>
  z.array(
    z.object({
      success: z.boolean(),
      errors: z.array(z.object({ statusCode: z.string(), message: z.string().default("") })).default([]),
    }),
  ),
);

// A Contacts report (Reports and Dashboards API): its detail rows, each cell in detailColumns' order.
const reportSchema = once(() =>
  z.object({
    reportMetadata: z.object({ detailColumns: z.array(z.string()) }),
    factMap: z.record(
      z.string(),
      z.object({ rows: z.array(z.object({ dataCells: z.array(z.object({ value: z.unknown() })) })).optional() }),
    ),
  }),
);

/** The contact ids of a report's detail rows (its CONTACT_ID column), in order, each once. */
function reportContactIds(report: z.output<ReturnType<typeof reportSchema>>): string[] {
  const column = report.reportMetadata.detailColumns.indexOf("CONTACT_ID");
  if (column === -1) return [];
  const ids = Object.values(report.factMap).flatMap((fact) =>
    (fact.rows ?? []).map((row) => row.dataCells[column]?.value).filter((id) => typeof id === "string"),
  );
  return [...new Set(ids)];
}

const parsed = <T extends z.ZodType>(schema: T, body: unknown): z.output<T> => crmShape("salesforce", schema, body);

const soqlString = (value: string) => `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

function salesforceClient({ token, baseUrl }: CrmConnection, call: CrmCall): CrmClient {
  const headers = { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" };
  const get = async (path: string, accept: readonly number[] = [200]) =>
    crmFetch(call, new Request(`${baseUrl}${path}`, { headers }), accept);
  // Every page of a query expected to answer at most `most` records (its pages bounded by that).
  const query = <T extends z.ZodType>(record: T, soql: string, most: number) =>
    readPages(
      call,
      { maxPages: Math.ceil(most / QUERY_MIN_PAGE) + 1, enough: Number.POSITIVE_INFINITY },
      async (at) => {
        const page = parsed(
          queryResultSchema(record),
          (await get(at ?? `${API}/query?${new URLSearchParams({ q: soql })}`)).body,
        );
        const next = page.done ? undefined : (page.nextRecordsUrl ?? undefined);
        if (next !== undefined && !QUERY_LOCATOR.test(next))
          throw badAnswer("salesforce", "gave a next page elsewhere");
        return { items: page.records, ...(next === undefined ? {} : { next }) };
      },
    );
  let userId: Promise<string> | undefined;
  const ownUser = () => {
    userId ??= get("/services/oauth2/userinfo").then(({ body }) => parsed(userInfoSchema(), body).user_id);
    return userId;
  };
  const fields = ["Id", "LastModifiedById", ...Object.values(PROPERTIES)].join(",");

  return {
    async accountId() {
      return parsed(userInfoSchema(), (await get("/services/oauth2/userinfo")).body).organization_id;
    },
    async lists(cursor, limit) {
      const at = cursor === undefined ? null : LIST_VIEWS_CURSOR.exec(cursor);
      if (cursor !== undefined && !at) return null;
      const path = at?.[1] ?? LIST_VIEWS;
      const skip = Number(at?.[2] ?? 0);
      const page = parsed(listViewsSchema(), (await get(path)).body);
      const rest = page.listviews.slice(skip);
      const lists = rest.slice(0, limit).map(({ id, label }) => ({ id, name: label }));
      const next =
        rest.length > limit ? `${path}#${skip + limit}` : page.nextRecordsUrl ? `${page.nextRecordsUrl}#0` : undefined;
      return { lists, ...(next ? { next } : {}) };
    },
    async listMembers(listId, limit) {
      if (!SALESFORCE_ID.test(listId)) return null;
      // A report's id starts 00O; anything else is taken for a Contact list view's (00B).
      const report = listId.startsWith("00O");
      const path = report
        ? `${API}/analytics/reports/${listId}?includeDetails=true`
        : `${API}/sobjects/Contact/listviews/${listId}/results?limit=2000`;
      const { status, body } = await get(path, [200, 404]);
      if (status === 404) return null;
      const ids = report
        ? reportContactIds(parsed(reportSchema(), body))
        : parsed(listViewSchema(), body).records.flatMap(
            ({ columns }) => columns.find((column) => column.fieldNameOrPath === "Id")?.value ?? [],
          );
      const members: CrmMember[] = [];
      for (let start = 0; start < Math.min(ids.length, limit + 1); start += BATCH_SIZE) {
        const chunk = ids.slice(start, start + BATCH_SIZE).filter((id) => SALESFORCE_ID.test(id));
        const names = [...Object.keys(MEMBER_FIELDS), "Account.Name", "Account.Website"].join(", ");
        const soql = `SELECT Id, ${names} FROM Contact WHERE Id IN (${chunk.map(soqlString).join(",")})`;
        const records = await query(contactSchema(), soql, chunk.length);
        // In the list's order (SOQL answers in its own).
        const byId = new Map(records.map((record) => [record.Id, record]));
        for (const record of chunk.flatMap((id) => byId.get(id) ?? [])) {
          const fields: Record<string, string> = {};
          for (const [property, field] of Object.entries(MEMBER_FIELDS)) {
            const value = text(record[property])?.trim();
            if (value) fields[field] = value;
          }
          const company = record.Account?.Name?.trim();
          const website = record.Account?.Website?.trim();
          if (company) fields.companyName = company;
          if (website) fields.companyDomain = website;
          members.push({ id: record.Id, fields });
        }
      }
      return members;
    },
    async readRecords(keys, by) {
      const wanted = by === "id" ? keys.filter((key) => SALESFORCE_ID.test(key)) : keys;
      if (wanted.length === 0) return [];
      const where = `${by === "id" ? "Id" : "Email"} IN (${wanted.map(soqlString).join(",")})`;
      const soql = `SELECT ${fields} FROM Contact WHERE ${where}`;
      const found = await query(contactSchema(), soql, wanted.length);
      if (found.length === 0) return [];
      const history = await query(
        historySchema(),
        `SELECT ContactId, Field, CreatedById FROM ContactHistory WHERE ContactId IN (${found.map((record) => soqlString(record.Id)).join(",")}) AND Field IN ('Email','Phone') ORDER BY CreatedDate DESC LIMIT ${HISTORY_LIMIT}`,
        HISTORY_LIMIT,
      );
      const me = await ownUser();
      return found.map((record): CrmRecord => {
        const values = Object.fromEntries(
          Object.values(PROPERTIES).map((name) => [name, text(record[name]) ?? undefined]),
        );
        const editedByUser = Object.fromEntries(
          Object.values(PROPERTIES).map((name) => {
            const latest = history.find((entry) => entry.ContactId === record.Id && entry.Field === name);
            return [name, (latest?.CreatedById ?? record.LastModifiedById ?? me) !== me];
          }),
        );
        return { id: record.Id, values, editedByUser };
      });
    },
    async updateRecords(updates) {
      // A field set to null is blanked (an undo restoring an empty field).
      const records = updates.map(({ id, values }) => ({ attributes: { type: "Contact" }, id, ...values }));
      const request = new Request(`${baseUrl}${API}/composite/sobjects`, {
        method: "PATCH",
        headers,
        body: JSON.stringify({ allOrNone: false, records }),
      });
      const answers = parsed(saveResultsSchema(), (await crmFetch(call, request)).body);
      const results: UpdateResults = new Map();
      updates.forEach(({ id }, index) => {
        const answer = answers[index];
        const error = answer?.errors[0];
        results.set(
          id,
          answer?.success
            ? null
            : { code: error?.statusCode ?? "UNKNOWN", message: (error?.message ?? "").slice(0, 500) },
        );
      });
      return results;
    },
  };
}

export const salesforce: CrmDeclaration<"salesforce"> = {
  name: "salesforce",
  words: {
    label: "Salesforce",
    token: "a current access token of a user who can read and edit Contacts",
    tokenCheck: "its userinfo",
    account: "org",
    sandbox: "sandbox",
    lists: "Contact list views (a Contacts report is not listed; its ID still works as source.listId)",
    listId: "a Contacts list view's ID (00B…) or a Contacts report's (00O…, its CONTACT_ID column), ending its address",
    editedBy: "field history",
  },
  // Each org answers at its own My Domain (instanceUrl), on hosts this pattern allows.
  endpoint: { hostPatternVariable: "SALESFORCE_HOST_PATTERN", defaultHostPattern: "*.my.salesforce.com" },
  // No per-second window is published (a daily allocation per org): this keeps a sync from spending it in a burst.
  limits: [{ limit: 100, seconds: 10 }],
  batchSize: BATCH_SIZE,
  properties: PROPERTIES,
  create: salesforceClient,
};
