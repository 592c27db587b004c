import type { SourceReport } from "../contact-info/batch-views";
import type { Contacts } from "../contact-info/contact";
import { completedItem, decideItem, type ItemResult, outcomeOf } from "./item-decision";
import type { ContactProvider, FindRequest } from "./provider";
import type { ResultCache } from "./result-cache";
import { type VerificationOptions, verifyEmails } from "./verification";
import { type ProviderReport, runWaterfall } from "./waterfall";

export type Resolution =
  | { kind: "record"; result: ItemResult; reports: ProviderReport[] }
  /** `found`: what this attempt found before a source asked for time; the batch keeps it for the item's end. */
  | { kind: "retry"; retryAfterSeconds: number | undefined; held: boolean; found: Contacts; reports: ProviderReport[] };

export interface EnrichOptions {
  providers: readonly ContactProvider[];
  /**
   * Where a cached result is looked up; absent where none may be used (the sandbox,
   * whose reserved behaviours a cache would hide, and a message without its customer).
   * Results are cached by the batch object, which records them, under this key (`cacheKey`).
   */
  cache?: { store: Pick<ResultCache, "get">; key: string };
  /** Who judges the emails an item would return, after the finders. */
  verification: VerificationOptions;
  satisfiedConfidence: number;
  maxAttempts: number;
}

/**
 * One attempt at an item: the result cache first, then the waterfall, then the
 * decision (decideItem), then the verifiers on the emails it would return or keep
 * for a retry (invalid ones are dropped, so an item left with nothing is
 * `not_found`, with reason `rejected_by_verification`). A result worth caching carries the key to cache it under
 * (`cacheKey`, the one it was looked up by): not when a verifier could not answer. The batch caches it only if it records it, so nothing is
 * cached for a deleted batch.
 */
export async function enrichItem(request: FindRequest, options: EnrichOptions): Promise<Resolution> {
  const cached = options.cache && (await options.cache.store.get(options.cache.key));
  if (cached) return { kind: "record", result: completedItem(cached, true), reports: [] };

  const { reports, emails, phones, satisfied, transientFailures, held, retryAfterSeconds } = await runWaterfall(
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
    held: held > 0 && held === transientFailures,
    retryAfterSeconds,
    attempt: request.attempt,
    maxAttempts: options.maxAttempts,
  });
  if (decision.kind === "retry") {
    const verified = await verifyEmails(emails, request.person, options.verification);
    return {
      ...decision,
      found: { emails: verified.emails, phones },
      reports: [...reports, ...verified.reports.map(timeless)],
    };
  }
  const { result } = decision;
  if (result.status !== "completed") return { kind: "record", result, reports };
  const verified = await verifyEmails(result.emails, request.person, options.verification);
  const cacheable = decision.cacheable && verified.reports.every((report) => report.outcome !== "unavailable");
  const asked = [...result.sources, ...verified.reports];
  const verifiedResult: ItemResult = {
    ...result,
    ...outcomeOf({ emails: verified.emails, phones: result.phones }, asked),
    emails: verified.emails,
    sources: asked,
    ...(cacheable && options.cache ? { cacheKey: options.cache.key } : {}),
  };
  return { kind: "record", result: verifiedResult, reports: [...reports, ...verified.reports.map(timeless)] };
}

// Verifications are timed by the upstream's own log lines; the report only counts outcomes.
const timeless = (report: SourceReport): ProviderReport => ({ ...report, ms: 0 });
