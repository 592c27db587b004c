import type { ItemOutcome } from "../contact-info/batch-contract";
import type { ItemReason, SourceReport } from "../contact-info/batch-views";
import type { Contacts, Outcome } from "../contact-info/contact";
import { itemErrors } from "../contact-info/item-errors";
import type { FindResult } from "./provider";

/** What the batch records for an item, less the item's index. */
export type ItemResult = ItemOutcome extends infer Outcome
  ? Outcome extends ItemOutcome
    ? Omit<Outcome, "index">
    : never
  : never;

/** A result and where it came from: what the result cache keeps, too. */
export interface SourcedResult extends FindResult {
  sources: SourceReport[];
}

/** What one attempt at an item gave. */
export interface AttemptFacts extends SourcedResult {
  /** Every requested field has a value at or above the satisfying confidence. */
  satisfied: boolean;
  /** Some source failed in a way a later attempt might not. */
  retryable: boolean;
  /** Every source that failed was held back by our rate governor: none was asked, so the attempt does not count. */
  held: boolean;
  retryAfterSeconds: number | undefined;
  attempt: number;
  maxAttempts: number;
}

export type Decision =
  | { kind: "record"; result: ItemResult /** A full answer, worth keeping in the result cache. */; cacheable: boolean }
  | { kind: "retry"; retryAfterSeconds: number | undefined; held: boolean };

/**
 * A completed item's outcome from what it returns and what its sources said. A data
 * source reports `found` only for requested contacts it returned, and only verification
 * drops any, so returning nothing after a data source found something means every email
 * found was judged invalid: `not_found` then says why, and the README's "every source
 * said not found" stays true of the rest. The same for a fresh and a cached result.
 */
export function outcomeOf(
  { emails, phones }: Contacts,
  sources: readonly SourceReport[],
): { outcome: Outcome; reason?: ItemReason } {
  if (emails.length + phones.length > 0) return { outcome: "found" };
  const sourceFound = sources.some((source) => source.kind === undefined && source.outcome === "found");
  return sourceFound ? { outcome: "not_found", reason: "rejected_by_verification" } : { outcome: "not_found" };
}

/** A source skipped because its vendor had reached the day's ceiling (VENDOR_DAILY_CALLS). */
export const atDailyCeiling = (source: SourceReport): boolean => source.reason === "vendor_budget_exhausted";

export const completedItem = ({ emails, phones, sources }: SourcedResult, fromCache: boolean): ItemResult => ({
  status: "completed",
  ...outcomeOf({ emails, phones }, sources),
  emails,
  phones,
  fromCache,
  sources,
});

/**
 * An item's fate after one attempt. Complete when the requested fields are found,
 * or when every source asked answered (so `not_found` means every source said it
 * knows nothing). Otherwise retry while a source might answer later, and always
 * when only our rate governor stood in the way (`held`: such an attempt does not
 * count, see the consumer). On the last
 * attempt (or when no retry can help): complete with what was found; if nothing
 * was, an unavailable source fails the item with `source_unavailable`, never
 * `not_found`; a vendor skipped at its daily ceiling counts as one that could not answer. Only
 * answers with no source unavailable or at its ceiling are cacheable.
 */
export function decideItem(facts: AttemptFacts): Decision {
  const { sources } = facts;
  const unavailable = sources.filter((source) => source.outcome === "unavailable").map((source) => source.name);
  const spent = sources.filter(atDailyCeiling).map((source) => source.name);
  const answered = sources.some((source) => source.outcome === "found" || source.outcome === "not_found");
  const complete = (cacheable: boolean): Decision => ({
    kind: "record",
    result: completedItem(facts, false),
    cacheable,
  });
  // A vendor at its daily ceiling is passed over, not waited for; but an answer without it is not a full one.
  const full = unavailable.length === 0 && spent.length === 0;
  if (facts.satisfied || (unavailable.length === 0 && answered)) return complete(full);
  if (facts.retryable && (facts.held || facts.attempt < facts.maxAttempts))
    return { kind: "retry", retryAfterSeconds: facts.retryAfterSeconds, held: facts.held };
  if (facts.emails.length + facts.phones.length > 0) return complete(false);
  const error =
    unavailable.length + spent.length > 0
      ? itemErrors.sourcesUnavailable([...unavailable, ...spent], facts.attempt)
      : itemErrors.noSourceConfigured;
  return { kind: "record", result: { status: "failed", error, sources }, cacheable: false };
}
