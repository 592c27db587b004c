// Erasure and the do-not-enrich list: the operations behind POST …/privacy/erasures,
// PUT …/privacy/suppressions and their MCP tools.
import { accountStub } from "../account/stub";
import { tenantOf } from "../base/tenant";
import { identifierKeys, personHasher } from "../contact-info/person-keys";
import { parseErasureRequest, parseSuppressionRequest } from "../contact-info/privacy-requests";
import { eraseFromSyncs } from "../crm/sync-erasure";
import { erasePerson } from "../privacy/erasure";
import type { Caller } from "./caller";

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
