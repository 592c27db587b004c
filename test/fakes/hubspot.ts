// HubSpot's CRM API, as its documentation describes it (developers.hubspot.com, read 2026-11), for the
// CRM tests. One portal per private-app token, made by the test (POST /__fake/portals). Documented
// behaviour acted out:
// - GET /account-info/v3/details → { portalId, accountType, … } ("Retrieve account details").
// - GET /crm/v3/lists/{listId}/memberships?limit&after: members by recordId ascending, at most 250 a
//   page (a `limit` over 250 is 400 VALIDATION_ERROR), `paging.next.after` until the last; 404 for an unknown list ("Fetch List Memberships Ordered by ID").
// - POST /crm/v3/lists/search { count, offset, processingTypes, additionalProperties } ("Search Lists"):
//   { lists: [{ listId, name, objectTypeId: "0-1", processingType, additionalProperties: { hs_list_size } }],
//   hasMore, offset (of the next page), total }; every list here holds contacts, processed MANUAL.
// - POST /crm/v3/objects/contacts/batch/read: at most 100 inputs (else 400 VALIDATION_ERROR), at most 50 with
//   `propertiesWithHistory` (else 400 VALIDATION_ERROR: "The maximum number of inputs supported in a batch
//   request for property histories is 50…"); `properties`
//   and `propertiesWithHistory` (each entry { value, timestamp, sourceType, sourceId }, newest first);
//   `idProperty: "email"`; ids not found → 207 with an OBJECT_NOT_FOUND error naming them in context.ids.
// - POST /crm/v3/objects/contacts/batch/update: at most 100 inputs, no id twice ("Duplicate IDs found in
//   batch input", 400); a read-only property → 400 VALIDATION_ERROR (READ_ONLY_VALUE) for the whole call;
//   an email another contact holds → 207 Multi-Status, that record alone failed (CONFLICT, context.ids).
// - Rate limit: private apps 100 requests per rolling 10 s (190 on Professional and Enterprise); past it 429 { errorType: "RATE_LIMIT",
//   policyName: "TEN_SECONDLY_ROLLING" } with X-HubSpot-RateLimit-Interval-Milliseconds, -Max, -Remaining.
// - A revoked or expired token → 401 INVALID_AUTHENTICATION.
// The portals, and the tests' controls of them (not HubSpot's API), are in hubspot-portals.ts.
import { json } from "./answer.ts";
import { faultyAnswer } from "./hubspot-faults.ts";
import { control, type Portal, portals, setProperty } from "./hubspot-portals.ts";

const BATCH_LIMIT = 100;
const HISTORY_BATCH_LIMIT = 50;
const MEMBERSHIPS_LIMIT = 250;
const WINDOW_MS = 10_000;

const error = (status: number, category: string, message: string, extra: Record<string, unknown> = {}) =>
  json({ status: "error", message, correlationId: crypto.randomUUID(), category, ...extra }, status);

function rateLimited(windowLimit: number): Response {
  return json(
    {
      status: "error",
      message: "You have reached your ten_secondly_rolling limit.",
      errorType: "RATE_LIMIT",
      policyName: "TEN_SECONDLY_ROLLING",
      correlationId: crypto.randomUUID(),
    },
    429,
    {
      "x-hubspot-ratelimit-interval-milliseconds": String(WINDOW_MS),
      "x-hubspot-ratelimit-max": String(windowLimit),
      "x-hubspot-ratelimit-remaining": "0",
    },
  );
}

function readContacts(portal: Portal, body: Record<string, unknown>): Response {
  const inputs = (body.inputs ?? []) as { id: string }[];
  if (inputs.length > BATCH_LIMIT) return error(400, "VALIDATION_ERROR", `Batch input limit is ${BATCH_LIMIT}`);
  const properties = (body.properties ?? []) as string[];
  const withHistory = (body.propertiesWithHistory ?? []) as string[];
  if (withHistory.length > 0 && inputs.length > HISTORY_BATCH_LIMIT)
    return error(
      400,
      "VALIDATION_ERROR",
      `The maximum number of inputs supported in a batch request for property histories is ${HISTORY_BATCH_LIMIT}. Please reduce the number of items and try again.`,
    );
  const byEmail = body.idProperty === "email";
  const results = [];
  const missing: string[] = [];
  for (const { id } of inputs) {
    const entry = byEmail
      ? [...portal.contacts].find(([, contact]) => contact.properties.email?.toLowerCase() === id.toLowerCase())
      : portal.contacts.has(id)
        ? ([id, portal.contacts.get(id)!] as const)
        : undefined;
    if (!entry) {
      missing.push(id);
      continue;
    }
    const [contactId, contact] = entry;
    results.push({
      id: contactId,
      properties: Object.fromEntries(properties.map((name) => [name, contact.properties[name] ?? null])),
      ...(withHistory.length > 0
        ? { propertiesWithHistory: Object.fromEntries(withHistory.map((name) => [name, contact.history[name] ?? []])) }
        : {}),
      createdAt: "2026-01-05T10:00:00.000Z",
      updatedAt: new Date().toISOString(),
      archived: false,
    });
  }
  const errors = missing.length
    ? [
        {
          status: "error",
          category: "OBJECT_NOT_FOUND",
          message: "Could not get some CONTACT objects, they may be deleted or not exist.",
          context: { ids: missing },
        },
      ]
    : [];
  return json(
    { status: "COMPLETE", results, ...(errors.length ? { numErrors: errors.length, errors } : {}) },
    errors.length ? 207 : 200,
  );
}

function updateContacts(portal: Portal, body: Record<string, unknown>): Response {
  const inputs = (body.inputs ?? []) as { id: string; properties: Record<string, string> }[];
  if (inputs.length > BATCH_LIMIT) return error(400, "VALIDATION_ERROR", `Batch input limit is ${BATCH_LIMIT}`);
  const ids = inputs.map((input) => input.id);
  const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (twice.length > 0)
    return error(400, "VALIDATION_ERROR", `Duplicate IDs found in batch input: [${twice.join(", ")}]`);
  const readOnly = inputs.flatMap((input) => Object.keys(input.properties).filter((name) => portal.readOnly.has(name)));
  if (readOnly.length > 0)
    return error(400, "VALIDATION_ERROR", "Property values were not valid", {
      errors: [
        { message: `${readOnly[0]} is a read only property; its value cannot be set.`, code: "READ_ONLY_VALUE" },
      ],
    });
  const results = [];
  const errors = [];
  for (const input of inputs) {
    const contact = portal.contacts.get(input.id);
    const email = input.properties.email?.toLowerCase();
    const holder = email
      ? [...portal.contacts].find(([id, other]) => id !== input.id && other.properties.email?.toLowerCase() === email)
      : undefined;
    if (!contact) {
      errors.push({
        status: "error",
        category: "OBJECT_NOT_FOUND",
        message: "resource not found",
        context: { ids: [input.id] },
      });
      continue;
    }
    if (holder) {
      errors.push({
        status: "error",
        category: "CONFLICT",
        message: `Contact already exists. Existing ID: ${holder[0]}`,
        context: { ids: [input.id] },
      });
      continue;
    }
    for (const [property, value] of Object.entries(input.properties))
      setProperty(contact, property, value, "INTEGRATION");
    results.push({
      id: input.id,
      properties: contact.properties,
      updatedAt: new Date().toISOString(),
      archived: false,
    });
  }
  return json(
    { status: "COMPLETE", results, ...(errors.length ? { numErrors: errors.length, errors } : {}) },
    errors.length ? 207 : 200,
  );
}

function memberships(portal: Portal, listId: string, url: URL): Response {
  const members = portal.lists.get(listId);
  if (!members) return error(404, "OBJECT_NOT_FOUND", `List ${listId} does not exist.`);
  const limit = Number(url.searchParams.get("limit") ?? 100);
  if (!(limit >= 1 && limit <= MEMBERSHIPS_LIMIT))
    return error(400, "VALIDATION_ERROR", `limit must be between 1 and ${MEMBERSHIPS_LIMIT}.`);
  const start = Number(url.searchParams.get("after") ?? 0);
  const page = members.slice(start, start + limit);
  const next = start + limit < members.length ? { next: { after: String(start + limit) } } : undefined;
  return json({
    results: page.map((recordId) => ({ recordId, membershipTimestamp: "2026-11-01T00:00:00Z" })),
    ...(next ? { paging: next } : {}),
  });
}

function searchLists(portal: Portal, body: Record<string, unknown>): Response {
  const count = Math.min(500, Number(body.count ?? 20));
  const offset = Number(body.offset ?? 0);
  const all = [...portal.lists].map(([listId, members]) => ({
    listId,
    listVersion: 1,
    name: portal.listNames.get(listId) ?? `List ${listId}`,
    objectTypeId: "0-1",
    processingStatus: "COMPLETE",
    processingType: "MANUAL",
    additionalProperties: { hs_list_size: String(members.length) },
    createdAt: "2026-01-05T10:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
  }));
  const lists = all.slice(offset, offset + count);
  return json({ lists, hasMore: offset + count < all.length, offset: offset + lists.length, total: all.length });
}

export async function hubspot(request: Request, url: URL): Promise<Response> {
  if (url.pathname.startsWith("/__fake/")) return control(request, url);
  const token = (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");
  const portal = portals.get(token);
  if (!portal || portal.revoked)
    return error(
      401,
      "INVALID_AUTHENTICATION",
      "Authentication credentials not found. This API supports OAuth 2.0 authentication.",
    );
  const now = Date.now();
  portal.recent = portal.recent.filter((at) => now - at < WINDOW_MS);
  if (portal.throttled > 0 || portal.recent.length >= portal.windowLimit) {
    portal.throttled = Math.max(0, portal.throttled - 1);
    return rateLimited(portal.windowLimit);
  }
  portal.recent.push(now);
  const call = `${request.method} ${url.pathname.replace(/\/lists\/[^/]+\//, "/lists/{listId}/")}`;
  portal.calls[call] = (portal.calls[call] ?? 0) + 1;
  if (request.method === "GET" && url.pathname === "/account-info/v3/details")
    return json({
      portalId: portal.id,
      accountType: "DEVELOPER_TEST",
      timeZone: "US/Eastern",
      companyCurrency: "USD",
      dataHostingLocation: "na1",
      uiDomain: "app.hubspot.com",
      utcOffset: "-05:00",
      utcOffsetMilliseconds: -18000000,
    });
  const list = /^\/crm\/v3\/lists\/([^/]+)\/memberships$/.exec(url.pathname);
  const faulty =
    portal.fault && faultyAnswer(portal.fault, url, portal.lists.get(decodeURIComponent(list?.[1] ?? "")) ?? []);
  if (faulty) return faulty;
  if (request.method === "GET" && list) return memberships(portal, decodeURIComponent(list[1]!), url);
  if (request.method === "POST" && url.pathname === "/crm/v3/lists/search")
    return searchLists(portal, await request.json());
  if (request.method === "POST" && url.pathname === "/crm/v3/objects/contacts/batch/read")
    return readContacts(portal, await request.json());
  if (request.method === "POST" && url.pathname === "/crm/v3/objects/contacts/batch/update") {
    const answer = updateContacts(portal, await request.json());
    if (portal.revokeAfterUpdates !== null && --portal.revokeAfterUpdates <= 0) portal.revoked = true;
    return answer;
  }
  return error(404, "OBJECT_NOT_FOUND", `No route for ${request.method} ${url.pathname}`);
}
