import type { ResultCache } from "../batch/result-cache";
import type { Contacts } from "../contact-info/contact";
import { completedItem, decideItem, type ItemResult } from "./item-decision";
import type { ContactProvider, FindRequest } from "./provider";
import { type ProviderReport, runWaterfall } from "./waterfall";

export type Resolution =
  | { kind: "record"; result: ItemResult; reports: ProviderReport[] }
  /** `found`: what this attempt found before a source asked for time; the batch keeps it for the item's end. */
  | { kind: "retry"; retryAfterSeconds: number | undefined; found: Contacts; reports: ProviderReport[] };

export interface EnrichOptions {
  providers: readonly ContactProvider[];
  /**
   * Where a cached result is looked up; absent where none may be used (the sandbox,
   * whose reserved behaviours a cache would hide, and a message without its customer).
   * Results are cached by the batch object, which records them (`cacheable`).
   */
  cache?: { store: Pick<ResultCache, "get">; key: string };
  satisfiedConfidence: number;
  maxAttempts: number;
}

/**
 * One attempt at an item: the result cache first, then the waterfall, then the
 * decision (decideItem). A result worth caching says so (`cacheable`); the batch
 * caches it only if it records it, so nothing is cached for a deleted batch.
 */
export async function enrichItem(request: FindRequest, options: EnrichOptions): Promise<Resolution> {
  const cached = options.cache && (await options.cache.store.get(options.cache.key));
  if (cached) return { kind: "record", result: completedItem(cached, true), reports: [] };

  const { reports, emails, phones, satisfied, transientFailures, retryAfterSeconds } = await runWaterfall(
    options.providers,
    request,
    options.satisfiedConfidence,
  );
  const sources = reports.map(({ name, outcome }) => ({ name, outcome }));
  const decision = decideItem({
    emails,
    phones,
    sources,
    satisfied,
    retryable: transientFailures > 0,
    retryAfterSeconds,
    attempt: request.attempt,
    maxAttempts: options.maxAttempts,
  });
  if (decision.kind === "retry") return { ...decision, found: { emails, phones }, reports };
  const { result } = decision;
  return { kind: "record", result: decision.cacheable && result.status === "completed" ? { ...result, cacheable: true } : result, reports };
}
