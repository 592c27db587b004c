import { accountStub } from "../account/stub";
import { log } from "../base/log";
import type { Tenant } from "../base/tenant";
import { batchStub } from "../batch/stub";
import type { NormalizedPerson } from "../contact-info/person";
import { identifierKeys, personHasher } from "../contact-info/person-keys";
import { cacheKeysOfPeople, verdictCacheKey } from "../enrichment/result-cache";
import type { ErasureReceipt } from "./schemas";

// Erasure of a person across a customer's batches (POST …/privacy/erasures): the
// account's person index names the batches that hold them, and only those are
// called, one RPC each; no batch is scanned that does not hold the person.

/**
 * What else holds values made from a customer's batch items (the CRM syncs, in a room above this one):
 * given the batches that hold the person and a way to ask one of them which items are theirs, it erases
 * the person's values there. It runs before the batches are erased, so a failure leaves it all to a
 * repeated erasure, which finds the same items.
 */
export type EraseDerived = (
  batchIds: readonly string[],
  itemsOf: (batchId: string) => Promise<number[]>,
  erasedAt: string,
) => Promise<void>;

// Batch objects called at once.
const BATCHES_AT_ONCE = 10;
// KV deletes at once.
const DELETES_AT_ONCE = 50;

/**
 * Erases the person from every batch the index says holds them, from the result
 * and verdict caches, then stores the receipt (and suppresses the person unless
 * `suppress` is false). A failure on the way throws before the receipt: the
 * erasure may be repeated, and erases what is left.
 */
export async function erasePerson(
  env: Env,
  tenant: Tenant,
  person: NormalizedPerson,
  suppress: boolean,
  eraseDerived?: EraseDerived,
): Promise<ErasureReceipt> {
  const keys = identifierKeys(person);
  const hashed = await personHasher(env, tenant).hash(keys);
  const account = accountStub(env, tenant);
  const erasedAt = new Date().toISOString();
  const { batchIds, personHashes } = await account.privacyHolders(hashed);
  await eraseDerived?.(batchIds, (id) => batchStub(env, id).personItems(tenant, keys), erasedAt);
  let items = 0;
  let batches = 0;
  for (let start = 0; start < batchIds.length; start += BATCHES_AT_ONCE) {
    const counts = await Promise.all(
      batchIds
        .slice(start, start + BATCHES_AT_ONCE)
        .map((id) => batchStub(env, id).erasePerson(tenant, keys, erasedAt)),
    );
    for (const count of counts) {
      items += count.items;
      if (count.items > 0) batches++;
    }
  }
  // Results are cached only in live. The batches deleted their items' entries for their fields; these are
  // the people's entries under every field set (another batch may have asked other fields), and the entry
  // of a person given by this identifier alone.
  if (tenant.environment === "live") {
    const cacheKeys = cacheKeysOfPeople(tenant, [...new Set([...personHashes, ...hashed])]);
    if (person.email !== undefined) cacheKeys.push(await verdictCacheKey(tenant, person.email));
    for (let start = 0; start < cacheKeys.length; start += DELETES_AT_ONCE) {
      await Promise.all(cacheKeys.slice(start, start + DELETES_AT_ONCE).map((key) => env.RESULT_CACHE.delete(key)));
    }
  }
  const receipt: ErasureReceipt = { id: crypto.randomUUID(), erasedAt, items, batches };
  await account.privacySaveErasure(receipt, hashed, suppress);
  log("person_erased", {
    erasureId: receipt.id,
    environment: tenant.environment,
    batchesAsked: batchIds.length,
    batches,
    items,
    suppress,
  });
  return receipt;
}
