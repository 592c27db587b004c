// The fake HubSpot's portals (hubspot.ts): one per private-app token, made by a test, and the test
// controls that change them (not HubSpot's own API): POST /__fake/portals, /__fake/revoke (now, after
// { afterUpdates }, or undone: { revoked: false }), /__fake/throttle (the next N calls answer 429), /__fake/edit (a person edits a
// property in the app), /__fake/fault { fault } (hubspot-faults.ts; null: none); GET /__fake/contacts/{token}/{id},
// /__fake/calls/{token}. A portal may be made with `generated: { listId, count }`: a list of `count` members,
// each a contact (ids from 100000), made here so a 10,000-member list costs the test one small request.
import { json } from "./answer.ts";
import { FAULTS, type Fault } from "./hubspot-faults.ts";

type HistoryEntry = { value: string; timestamp: string; sourceType: string; sourceId?: string };
export interface Contact {
  properties: Record<string, string>;
  history: Record<string, HistoryEntry[]>;
}
export interface Portal {
  id: number;
  contacts: Map<string, Contact>;
  lists: Map<string, string[]>;
  /** A list's name, as a person named it in the app (else "List {id}"). */
  listNames: Map<string, string>;
  readOnly: Set<string>;
  revoked: boolean;
  /** Updates still answered before the token is revoked (a token revoked in the middle of a sync). */
  revokeAfterUpdates: number | null;
  throttled: number;
  /** Requests per rolling 10 s: 100 (Free, Starter), 190 (Professional, Enterprise: `tier: "professional"`). */
  windowLimit: number;
  /** How it misbehaves (hubspot-faults.ts), or null. */
  fault: Fault | null;
  recent: number[];
  calls: Record<string, number>;
}

export const portals = new Map<string, Portal>();
let nextPortal = 1000;
export function setProperty(contact: Contact, property: string, value: string, sourceType: string) {
  contact.properties[property] = value;
  const entry = {
    value,
    timestamp: new Date().toISOString(),
    sourceType,
    sourceId: sourceType === "CRM_UI" ? "userId:42" : "private-app",
  };
  contact.history[property] = [entry, ...(contact.history[property] ?? [])];
}

type SeedContact = { id: string; properties: Record<string, string>; sourceTypes?: Record<string, string> };

export async function control(request: Request, url: URL): Promise<Response> {
  const body = request.method === "POST" ? await request.json<Record<string, unknown>>() : {};
  const token = String(body.token ?? url.pathname.split("/")[3] ?? "");
  const portal = portals.get(token);
  if (url.pathname === "/__fake/portals") {
    const contacts = new Map<string, Contact>();
    for (const seed of (body.contacts ?? []) as SeedContact[]) {
      const contact: Contact = { properties: {}, history: {} };
      for (const [property, value] of Object.entries(seed.properties))
        setProperty(contact, property, value, seed.sourceTypes?.[property] ?? "IMPORT");
      contacts.set(seed.id, contact);
    }
    const lists = new Map(Object.entries((body.lists ?? {}) as Record<string, string[]>));
    const generated = body.generated as { listId: string; count: number } | undefined;
    if (generated) {
      const ids = Array.from({ length: generated.count }, (_, n) => String(100_000 + n));
      for (const [n, id] of ids.entries()) {
        const properties = { firstname: `Person${n}`, lastname: "Example", website: `co${n}.example` };
        contacts.set(id, { properties, history: {} });
      }
      lists.set(generated.listId, ids);
    }
    const listNames = new Map(Object.entries((body.listNames ?? {}) as Record<string, string>));
    const readOnly = new Set((body.readOnly ?? []) as string[]);
    portals.set(token, {
      id: nextPortal++,
      contacts,
      lists,
      listNames,
      readOnly,
      revoked: false,
      revokeAfterUpdates: null,
      throttled: 0,
      windowLimit: body.tier === "professional" ? 190 : 100,
      fault: null,
      recent: [],
      calls: {},
    });
    return json({ portalId: nextPortal - 1 });
  }
  if (!portal) return json({ error: "no such portal" }, 404);
  if (url.pathname === "/__fake/revoke") {
    if (typeof body.afterUpdates === "number") portal.revokeAfterUpdates = body.afterUpdates;
    else portal.revoked = body.revoked !== false;
  } else if (url.pathname === "/__fake/throttle") portal.throttled = Number(body.count ?? 1);
  else if (url.pathname === "/__fake/fault") portal.fault = FAULTS.find((fault) => fault === body.fault) ?? null;
  else if (url.pathname === "/__fake/edit") {
    const contact = portal.contacts.get(String(body.id));
    if (!contact) return json({ error: "no such contact" }, 404);
    setProperty(contact, String(body.property), String(body.value), String(body.sourceType ?? "CRM_UI"));
  } else if (url.pathname.startsWith("/__fake/contacts/"))
    return json(portal.contacts.get(url.pathname.split("/")[4] ?? "") ?? null);
  else if (url.pathname.startsWith("/__fake/calls/")) return json(portal.calls);
  return json({ ok: true });
}
