import type { Learned } from "../account/learned";
import { accountStub } from "../account/stub";
import { jurisdictionOfBatch } from "../base/batch-id";
import type { ItemOutcome } from "../contact-info/batch-contract";
import { itemErrors } from "../contact-info/item-errors";
import { readVendorConfig } from "../enrichment/vendor-config";
import type { ItemMessage, PersonItem } from "../queue-messages/item-message";

// The do-not-enrich list is checked when items are processed, not at submission:
// a person suppressed after a batch was submitted is still never looked up, and
// a submit costs no call to the account. The cost is one RPC to the account per
// group of messages of one batch (up to 100 items), not one per item; when the
// waterfall learns its order, the same call reads the finders' records.

/** A message of one batch's group, with its items still to be processed (queue/pending-only.ts). */
type PendingMessage = { message: { readonly body: ItemMessage }; items: readonly PersonItem[] };

/** The items suppressed, and whether the customer's do-not-deliver list holds anything (do-not-deliver.ts). */
export interface Screening {
  outcomes: ItemOutcome[];
  withholds: boolean;
  /** The finders' records for the learned order (live, WATERFALL_ORDER learned): read in the same account call. */
  learned?: Learned;
}

/**
 * The items of one batch's pending messages whose person is on the customer's
 * suppression list, as failed outcomes (which cost nothing): one account call.
 */
export async function suppressedOutcomes(env: Env, pending: readonly PendingMessage[]): Promise<Screening> {
  const body = pending[0]?.message.body;
  if (body === undefined) return { outcomes: [], withholds: false };
  const tenant = {
    customerId: body.customerId,
    environment: body.environment,
    jurisdiction: jurisdictionOfBatch(body.batchId),
  };
  // The hashes made at submission.
  const items = pending.flatMap(({ items }) => items.map(({ index, hashes }) => ({ index, keys: hashes.keys })));
  const keys = [...new Set(items.flatMap((item) => item.keys))];
  const learns = body.environment === "live" && readVendorConfig(env).order === "learned";
  // The learned order's records are the account's usage, not privacy's: read in the same call (screenGroup),
  // for the group's company domains, only when the waterfall learns its order.
  const domains = learns
    ? [...new Set(pending.flatMap(({ items }) => items.flatMap(({ person }) => person.companyDomain ?? [])))]
    : undefined;
  const { screen, learned } = await accountStub(env, tenant).screenGroup(keys, domains);
  const { suppressed, withholds } = screen;
  const listed = new Set(suppressed);
  const outcomes = items
    .filter((item) => item.keys.some((key) => listed.has(key)))
    .map(({ index }): ItemOutcome => ({ index, status: "failed", error: itemErrors.suppressed, sources: [] }));
  return learned ? { outcomes, withholds, learned } : { outcomes, withholds };
}
