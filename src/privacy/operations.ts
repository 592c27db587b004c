// Privacy's operations, whatever the door (a REST route in routes.ts, an MCP tool): erasure of a person and its
// receipt (POST and GET …/privacy/erasures), the do-not-enrich list (…/privacy/suppressions) and the
// do-not-deliver list (…/privacy/do-not-deliver), both lists of keyed hashes served alike.
import { accountStub } from "../account/stub";
import { tenantOf } from "../base/tenant";
import { isUuid } from "../base/uuid";
import { identifierKeys, personHasher } from "../contact-info/person-keys";
import { eraseFromSyncs } from "../crm/sync-erasure";
import { notFound } from "../http/errors";
import type { Caller } from "../operations/caller";
import { operation } from "../rate-limit/operation";
import { erasePerson } from "./erasure";
import { doNotDeliverKeySchema, parseErasureRequest, parseSuppressionRequest, suppressionKeySchema } from "./schemas";
import { type KeyedHashListName, keyedHashPaging } from "./storage/keyed-hash-list";

/** Erases one person (the body as POST …/privacy/erasures takes it) and answers the receipt. */
export const erasePersonOperation = operation(
  "contact_info_request",
  function erasePersonOperation({ env, apiKey }: Caller, body: unknown) {
    const { person, suppress } = parseErasureRequest(body);
    const tenant = tenantOf(apiKey);
    return erasePerson(env, tenant, person, suppress, eraseFromSyncs(env, tenant));
  },
);

/** An erasure's receipt; a 404 when the caller has none with this id. */
export const readErasure = operation("rate_limits", async function readErasure({ env, apiKey }: Caller, id: string) {
  // Receipts live in the caller's own account: another customer's id is simply not there.
  const receipt = isUuid(id, true) ? await accountStub(env, tenantOf(apiKey)).privacyErasure(id.toLowerCase()) : null;
  if (!receipt) throw notFound("No erasure with this id exists.");
  return receipt;
});

/** Adds people (the body as PUT …/privacy/suppressions takes it) to the do-not-enrich list. */
export const suppressPeople = operation(
  "contact_info_request",
  async function suppressPeople({ env, apiKey }: Caller, body: unknown) {
    const people = parseSuppressionRequest(body);
    const tenant = tenantOf(apiKey);
    const hasher = personHasher(env, tenant);
    const keys = await Promise.all(people.map((person) => hasher.hash(identifierKeys(person))));
    const added = await accountStub(env, tenant).privacyAdd("suppressions", [...new Set(keys.flat())]);
    return { keys, added };
  },
);

// What tells the two lists apart at their doors: the key's schema, and the list's name in a 404.
const LISTS = {
  suppressions: { keySchema: suppressionKeySchema, named: "the suppression list" },
  do_not_deliver: { keySchema: doNotDeliverKeySchema, named: "the do-not-deliver list" },
} as const satisfies Record<KeyedHashListName, unknown>;

/** One page of a list (the query as GET …/privacy/<list> takes it), newest first. */
function pageOfList({ env, apiKey }: Caller, list: KeyedHashListName, query: Record<string, string>) {
  const page = keyedHashPaging[list].parse(query);
  return accountStub(env, tenantOf(apiKey)).privacyPage(list, page);
}

/** Takes a key off a list; a 404 when it is not there. */
async function removeFromList({ env, apiKey }: Caller, list: KeyedHashListName, key: string): Promise<void> {
  const { keySchema, named } = LISTS[list];
  const removed =
    keySchema.safeParse(key).success && (await accountStub(env, tenantOf(apiKey)).privacyRemove(list, key));
  if (!removed) throw notFound(`This key is not on ${named}.`);
}

/** One page of the do-not-enrich list, newest first. */
export const listSuppressions = operation(
  "rate_limits",
  async function listSuppressions(caller: Caller, query: Record<string, string>) {
    const { entries, nextCursor } = await pageOfList(caller, "suppressions", query);
    return { suppressions: entries, nextCursor };
  },
);

/** Takes a key off the do-not-enrich list: the person's items are enriched again. */
export const unsuppress = operation("contact_info_request", (caller: Caller, key: string) =>
  removeFromList(caller, "suppressions", key),
);

/** One page of the do-not-deliver list, newest first. */
export const listDoNotDeliver = operation(
  "rate_limits",
  async function listDoNotDeliver(caller: Caller, query: Record<string, string>) {
    const { entries, nextCursor } = await pageOfList(caller, "do_not_deliver", query);
    return { doNotDeliver: entries, nextCursor };
  },
);

/** Takes a key off the do-not-deliver list, so its value may be delivered again. */
export const deliverAgain = operation("contact_info_request", (caller: Caller, key: string) =>
  removeFromList(caller, "do_not_deliver", key),
);
