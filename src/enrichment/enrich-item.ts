import type { ContactField, Email, ItemError, Phone } from "../contact-info/contact";
import type { NormalizedPerson } from "../contact-info/person";
import type { ContactProvider } from "./provider";
import type { ResultCache } from "./result-cache";
import { runWaterfall, type ProviderReport } from "./waterfall";

export type Resolution =
  | { kind: "completed"; emails: Email[]; phones: Phone[]; fromCache: boolean; reports: ProviderReport[] }
  | { kind: "retry"; retryAfterSeconds: number | undefined; reports: ProviderReport[] }
  | { kind: "failed"; error: ItemError; reports: ProviderReport[] };

export interface EnrichOptions {
  providers: readonly ContactProvider[];
  /** Absent where results must not be cached (the sandbox: caching would hide its reserved behaviours). */
  cache?: { store: ResultCache; key: string };
  satisfiedConfidence: number;
  maxAttempts: number;
}

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
  if (cached) return { kind: "completed", emails: cached.emails, phones: cached.phones, fromCache: true, reports: [] };

  const result = await runWaterfall(options.providers, request, options.satisfiedConfidence);
  const { emails, phones, reports } = result;
  const complete = result.satisfied || (result.transientFailures === 0 && result.answered > 0);
  if (complete) {
    // Only a full answer is worth keeping: a partial one would hide what a failed provider might add.
    if (options.cache && result.transientFailures === 0) await options.cache.store.put(options.cache.key, result);
    return { kind: "completed", emails, phones, fromCache: false, reports };
  }
  if (result.transientFailures > 0 && request.attempt < options.maxAttempts) {
    return { kind: "retry", retryAfterSeconds: result.retryAfterSeconds, reports };
  }
  if (result.answered > 0) return { kind: "completed", emails, phones, fromCache: false, reports };
  return {
    kind: "failed",
    error: {
      code: "processing_failed",
      message: options.providers.length === 0 ? "no data source is configured" : `no data source could answer after ${request.attempt} attempt(s)`,
    },
    reports,
  };
}
