import { completedItem, decideItem, type ItemResult } from "./item-decision";
import type { ContactProvider, FindRequest } from "./provider";
import type { ResultCache } from "./result-cache";
import { type ProviderReport, runWaterfall } from "./waterfall";

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

/** One attempt at an item: the result cache first, then the waterfall, then the decision (decideItem). */
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
  if (decision.kind === "retry") return { ...decision, reports };
  if (decision.cacheable && options.cache) await options.cache.store.put(options.cache.key, { emails, phones, sources });
  return { kind: "record", result: decision.result, reports };
}
