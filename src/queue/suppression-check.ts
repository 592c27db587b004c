import { accountStub } from "../account/stub";
import { jurisdictionOfBatch } from "../base/batch-id";
import type { ItemOutcome } from "../contact-info/batch-contract";
import { itemErrors } from "../contact-info/item-errors";
import { identifierKeys, personHasher } from "../contact-info/person-keys";
import type { PendingMessage } from "./pending-only";

// The do-not-enrich list is checked when items are processed, not at submission:
// a person suppressed after a batch was submitted is still never looked up, and
// a submit costs no call to the account. The cost is one RPC to the account per
// group of messages of one batch (up to 100 items), not one per item.

/**
 * The items of one batch's pending messages whose person is on the customer's
 * suppression list, as failed outcomes (which cost nothing): one account call.
 * None for a message from an older deploy, which does not name its customer.
 */
export async function suppressedOutcomes(env: Env, pending: readonly PendingMessage[]): Promise<ItemOutcome[]> {
  const body = pending[0]?.message.body;
  if (body?.customerId === undefined) return [];
  const tenant = {
    customerId: body.customerId,
    environment: body.environment,
    jurisdiction: jurisdictionOfBatch(body.batchId),
  };
  const hasher = personHasher(env, tenant);
  // The hashes made at submission; an item without them (stored before its batch's hashes were keyed) is hashed now.
  const items = await Promise.all(
    pending.flatMap(({ items }) =>
      items.map(async ({ index, person, hashes }) => ({
        index,
        keys: hashes?.keys ?? (await hasher.hash(identifierKeys(person))),
      })),
    ),
  );
  const keys = [...new Set(items.flatMap((item) => item.keys))];
  if (keys.length === 0) return [];
  const listed = new Set(await accountStub(env, tenant).suppressedAmong(keys));
  if (listed.size === 0) return [];
  return items
    .filter((item) => item.keys.some((key) => listed.has(key)))
    .map(({ index }) => ({ index, status: "failed", error: itemErrors.suppressed, sources: [] }));
}
