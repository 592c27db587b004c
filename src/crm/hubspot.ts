import * as z from "zod";
import { once } from "../base/once";
import type { CrmClient, CrmConnection, CrmDeclaration, CrmMember, CrmRecord, UpdateResults } from "./crm";
import { type CrmCall, crmFetch, crmShape, readPages } from "./crm-http";

// HubSpot's CRM API v3, as documented (developers.hubspot.com, 2026-11):
// - GET /account-info/v3/details → { portalId, accountType, … }: checks a private app's token.
// - GET /crm/v3/lists/{listId}/memberships?limit&after → { results: [{ recordId }], paging.next.after };
//   at most 250 a page (`limit`); a list that does not exist is 404.
// - POST /crm/v3/lists/search { count, offset, processingTypes, additionalProperties } → { lists: [{ listId, name,
//   objectTypeId (0-1: contacts), additionalProperties: { hs_list_size } }], hasMore, offset, total } ("Search Lists").
// - POST /crm/v3/objects/contacts/batch/read { inputs: [{ id }], properties, propertiesWithHistory,
//   idProperty? }: at most 100 inputs, and at most 50 with propertiesWithHistory ("The maximum number of
//   inputs supported in a batch request for property histories is 50"); each history entry names its sourceType (CRM_UI for a person
//   in the app, API, INTEGRATION, IMPORT, …), newest first; records not found come back as errors (207).
// - POST /crm/v3/objects/contacts/batch/update { inputs: [{ id, properties }] }: at most 100 inputs,
//   no id twice; 200, or 207 Multi-Status with `errors[]` naming the failed ids in `context.ids`.
// - Limits: private apps 100 requests per 10 s (Free, Starter; 190 on Professional and Enterprise);
//   a 429 carries X-HubSpot-RateLimit-Interval-Milliseconds and friends.

/** Who changed a property, by HubSpot's sourceType: these are a person's hand. */
const PERSON_SOURCES = new Set(["CRM_UI", "MOBILE_IOS", "MOBILE_ANDROID"]);
const BATCH_SIZE = 100;
const HISTORY_BATCH_SIZE = 50;
const MEMBERSHIPS_PAGE = 250;
const PROPERTIES = { email: "email", phone: "phone" } as const;
// What a list member is read as (person.ts's fields): the record id becomes externalId.
const MEMBER_FIELDS = {
  firstname: "firstName",
  lastname: "lastName",
  email: "email",
  company: "companyName",
  website: "companyDomain",
  hs_linkedin_url: "linkedinUrl",
} as const;

const historySchema = once(() => z.array(z.object({ value: z.string().nullish(), sourceType: z.string().nullish() })));
const recordSchema = once(() =>
  z.object({
    id: z.string(),
    properties: z.record(z.string(), z.string().nullish()),
    propertiesWithHistory: z.record(z.string(), historySchema()).optional(),
  }),
);
const batchSchema = once(() =>
  z.object({
    results: z.array(recordSchema()).default([]),
    errors: z
      .array(
        z.object({
          category: z.string().default("ERROR"),
          message: z.string().default(""),
          context: z
            .object({ ids: z.array(z.string()).optional() })
            .partial()
            .optional(),
        }),
      )
      .default([]),
  }),
);
const membershipsSchema = once(() =>
  z.object({
    results: z.array(z.object({ recordId: z.union([z.string(), z.number()]).transform(String) })),
    paging: z.object({ next: z.object({ after: z.string() }).optional() }).optional(),
  }),
);
const listSearchSchema = once(() =>
  z.object({
    lists: z.array(
      z.object({
        listId: z.union([z.string(), z.number()]).transform(String),
        name: z.string(),
        objectTypeId: z.string().optional(),
        additionalProperties: z.record(z.string(), z.string().nullish()).optional(),
      }),
    ),
    hasMore: z.boolean().default(false),
    offset: z.number().int().nonnegative().optional(),
  }),
);
const CONTACTS_OBJECT = "0-1";
const accountSchema = once(() => z.object({ portalId: z.union([z.number(), z.string()]).transform(String) }));

const parsed = <T extends z.ZodType>(schema: T, body: unknown): z.output<T> => crmShape("hubspot", schema, body);

/** `keys` in chunks of `size`, in order. */
const chunks = <T>(keys: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(keys.length / size) }, (_, n) => keys.slice(n * size, (n + 1) * size));

function hubspotClient({ token, baseUrl }: CrmConnection, call: CrmCall): CrmClient {
  const headers = { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" };
  const post = (path: string, body: unknown) =>
    crmFetch(
      call,
      new Request(`${baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
      [200, 207],
    );

  // With history, HubSpot reads at most 50 records a call: a sync's 100 are two calls.
  const readRecords = async (keys: readonly string[], by: "id" | "email"): Promise<CrmRecord[]> => {
    const properties = Object.values(PROPERTIES);
    const answers = [];
    for (const chunk of chunks(keys, HISTORY_BATCH_SIZE)) {
      const { body } = await post("/crm/v3/objects/contacts/batch/read", {
        inputs: chunk.map((id) => ({ id })),
        properties,
        propertiesWithHistory: properties,
        ...(by === "email" ? { idProperty: "email" } : {}),
      });
      answers.push(...parsed(batchSchema(), body).results);
    }
    return answers.map((record) => ({
      id: record.id,
      values: Object.fromEntries(properties.map((name) => [name, record.properties[name] ?? undefined])),
      editedByUser: Object.fromEntries(
        properties.map((name) => [
          name,
          PERSON_SOURCES.has(record.propertiesWithHistory?.[name]?.[0]?.sourceType ?? ""),
        ]),
      ),
    }));
  };

  return {
    async accountId() {
      const request = new Request(`${baseUrl}/account-info/v3/details`, { headers });
      return parsed(accountSchema(), (await crmFetch(call, request)).body).portalId;
    },
    async lists(cursor, limit) {
      if (cursor !== undefined && !/^\d{1,9}$/.test(cursor)) return null;
      const { body } = await post("/crm/v3/lists/search", {
        count: limit,
        offset: Number(cursor ?? 0),
        processingTypes: ["MANUAL", "DYNAMIC", "SNAPSHOT"],
        additionalProperties: ["hs_list_size"],
      });
      const page = parsed(listSearchSchema(), body);
      const lists = page.lists
        .filter((list) => (list.objectTypeId ?? CONTACTS_OBJECT) === CONTACTS_OBJECT)
        .map(({ listId, name, additionalProperties }) => {
          const size = Number(additionalProperties?.hs_list_size ?? Number.NaN);
          return { id: listId, name, ...(Number.isSafeInteger(size) && size >= 0 ? { size } : {}) };
        });
      return { lists, ...(page.hasMore && page.offset !== undefined ? { next: String(page.offset) } : {}) };
    },
    async listMembers(listId, limit) {
      let missing = false;
      // One past the limit is read, so the caller can refuse a list too large for a batch; HubSpot fills
      // its pages, so twice the pages that many members fill is more than an honest list needs.
      const enough = limit + 1;
      const ids = await readPages(
        call,
        { maxPages: 2 * Math.ceil(enough / MEMBERSHIPS_PAGE) + 1, enough },
        async (after) => {
          const query = new URLSearchParams({ limit: String(MEMBERSHIPS_PAGE), ...(after ? { after } : {}) });
          const path = `/crm/v3/lists/${encodeURIComponent(listId)}/memberships?${query}`;
          const { status, body } = await crmFetch(call, new Request(`${baseUrl}${path}`, { headers }), [200, 404]);
          if (status === 404) {
            missing = true;
            return { items: [] };
          }
          const page = parsed(membershipsSchema(), body);
          const next = page.paging?.next?.after;
          return { items: page.results.map((member) => member.recordId), ...(next ? { next } : {}) };
        },
      );
      if (missing) return null;
      const members: CrmMember[] = [];
      for (const chunk of chunks(ids.slice(0, enough), BATCH_SIZE)) {
        const { body } = await post("/crm/v3/objects/contacts/batch/read", {
          inputs: chunk.map((id) => ({ id })),
          properties: Object.keys(MEMBER_FIELDS),
        });
        const byId = new Map(parsed(batchSchema(), body).results.map((record) => [record.id, record]));
        for (const id of chunk) {
          const fields: Record<string, string> = {};
          for (const [property, field] of Object.entries(MEMBER_FIELDS)) {
            const value = byId.get(id)?.properties[property]?.trim();
            if (value) fields[field] = value;
          }
          members.push({ id, fields });
        }
      }
      return members;
    },
    readRecords,
    async updateRecords(updates) {
      const { body } = await post("/crm/v3/objects/contacts/batch/update", {
        // HubSpot blanks a property set to the empty string.
        inputs: updates.map(({ id, values }) => ({
          id,
          properties: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value ?? ""])),
        })),
      });
      const answer = parsed(batchSchema(), body);
      const results: UpdateResults = new Map(updates.map(({ id }) => [id, null]));
      for (const error of answer.errors) {
        for (const id of error.context?.ids ?? []) {
          if (results.has(id)) results.set(id, { code: error.category, message: error.message.slice(0, 500) });
        }
      }
      return results;
    },
  };
}

export const hubspot: CrmDeclaration<"hubspot"> = {
  name: "hubspot",
  words: {
    label: "HubSpot",
    token: "a private app's token",
    tokenCheck: "GET /account-info/v3/details",
    account: "portal",
    sandbox: "developer test account",
    lists: "contact lists (POST /crm/v3/lists/search)",
    listId: "a list id",
    editedBy: "history sourceType CRM_UI or a mobile app",
    tokenHelp:
      "a private app's access token (Settings › Integrations › Private apps) with the contacts and lists scopes",
    listIdHelp: "the number in the list's address (…/objectLists/123)",
  },
  endpoint: { urlVariable: "HUBSPOT_API_URL", defaultUrl: "https://api.hubapi.com" },
  limits: [{ limit: 100, seconds: 10 }],
  // Its rolling window, when a 429 names no Retry-After.
  waitHeader: "x-hubspot-ratelimit-interval-milliseconds",
  batchSize: BATCH_SIZE,
  properties: PROPERTIES,
  create: hubspotClient,
};
