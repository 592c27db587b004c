// Erasure, the do-not-enrich list and the do-not-deliver list: the operations behind
// POST …/privacy/erasures, PUT …/privacy/suppressions, …/privacy/do-not-deliver and their MCP tools.
import { accountStub } from "../account/stub";
import { tenantOf } from "../base/tenant";
import { identifierKeys, personHasher } from "../contact-info/person-keys";
import { eraseFromSyncs } from "../crm/sync-erasure";
import { notFound } from "../http/errors";
import type { Caller } from "../operations/caller";
import { erasePerson } from "./erasure";
import { parseErasureRequest, parseSuppressionRequest } from "./requests";
import { doNotDeliverPaging } from "./storage/do-not-deliver-list";
import { doNotDeliverKeySchema } from "./views";

/** Erases one person (the body as POST …/privacy/erasures takes it) and answers the receipt. */
export function erasePersonOperation({ env, apiKey }: Caller, body: unknown) {
  const { person, suppress } = parseErasureRequest(body);
  const tenant = tenantOf(apiKey);
  return erasePerson(env, tenant, person, suppress, eraseFromSyncs(env, tenant));
}

/** Adds people (the body as PUT …/privacy/suppressions takes it) to the do-not-enrich list. */
export async function suppressPeople({ env, apiKey }: Caller, body: unknown) {
  const people = parseSuppressionRequest(body);
  const tenant = tenantOf(apiKey);
  const hasher = personHasher(env, tenant);
  const keys = await Promise.all(people.map((person) => hasher.hash(identifierKeys(person))));
  const { added } = await accountStub(env, tenant).suppress([...new Set(keys.flat())]);
  return { keys, added };
}

/** One page of the do-not-deliver list (the query as GET …/privacy/do-not-deliver takes it), newest first. */
export function listDoNotDeliver({ env, apiKey }: Caller, query: Record<string, string>) {
  const page = doNotDeliverPaging.parse(query);
  return accountStub(env, tenantOf(apiKey)).undeliverables(page);
}

/** Takes a key off the do-not-deliver list, so its value may be delivered again; a 404 when it is not there. */
export async function deliverAgain({ env, apiKey }: Caller, key: string): Promise<void> {
  const removed =
    doNotDeliverKeySchema.safeParse(key).success && (await accountStub(env, tenantOf(apiKey)).deliverAgain(key));
  if (!removed) throw notFound("This key is not on the do-not-deliver list.");
}
