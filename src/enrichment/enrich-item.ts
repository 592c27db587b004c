import type { ItemOutcome } from "../batch/contract";
import type { ContactField } from "../contact-info/contact";
import type { NormalizedPerson } from "../contact-info/person";
import type { ContactProvider, FindResult } from "./provider";
import type { ResultCache } from "./result-cache";
import { type ProviderReport, runWaterfall } from "./waterfall";

/** What the batch records for an item, less the item's index. */
type ItemResult = ItemOutcome extends infer Outcome ? (Outcome extends ItemOutcome ? Omit<Outcome, "index"> : never) : never;

export type Resolution =
  | { kind: "record"; result: ItemResult; reports: ProviderReport[] }
  | { kind: "retry"; retryAfterSeconds: number | undefined; reports: ProviderReport[] };

export interface EnrichOptions {
  providers: readonly ContactProvider[];
  /** Absent where results must not be cached (the sandbox: caching would hide its reserved behaviours). */
  cache?: { store: ResultCache; key: string };
  satisfiedConfidence: number;
  maxAttempts: number;
}

const completed = ({ emails, phones }: FindResult, fromCache: boolean): ItemResult => ({
  status: "completed",
  outcome: emails.length + phones.length > 0 ? "found" : "not_found",
  emails,
  phones,
  fromCache,
});

/**
 * Decides an item's fate on one attempt. Complete when the requested fields are
 * found, or when every provider answered; retry while a provider failed in a way
 * that may pass; on the last attempt, complete with whatever answered, and fail
 * only if nothing ever did.
 */
export async function enrichItem(
  request: { person: NormalizedPerson; fields: readonly ContactField[]; attempt: number },
  options: EnrichOptions,
): Promise<Resolution> {
  const cached = options.cache && (await options.cache.store.get(options.cache.key));
  if (cached) return { kind: "record", result: completed(cached, true), reports: [] };

  const result = await runWaterfall(options.providers, request, options.satisfiedConfidence);
  const { reports } = result;
  const complete = result.satisfied || (result.transientFailures === 0 && result.answered > 0);
  if (complete) {
    // Only a full answer is worth keeping: a partial one would hide what a failed provider might add.
    if (options.cache && result.transientFailures === 0) await options.cache.store.put(options.cache.key, result);
    return { kind: "record", result: completed(result, false), reports };
  }
  if (result.transientFailures > 0 && request.attempt < options.maxAttempts) {
    return { kind: "retry", retryAfterSeconds: result.retryAfterSeconds, reports };
  }
  if (result.answered > 0) return { kind: "record", result: completed(result, false), reports };
  const message =
    options.providers.length === 0 ? "no data source is configured" : `no data source could answer after ${request.attempt} attempt(s)`;
  return { kind: "record", result: { status: "failed", error: { code: "processing_failed", message } }, reports };
}
