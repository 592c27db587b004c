// The enricher: an item's result, built once per consumer from the configuration (which finders and
// verifiers, in which order, which caches), then per item the cache, the waterfall, verification and the decision.

import type { Learned } from "../account/learned";
import type { Config } from "../base/config";
import type { Environment } from "../base/environment";
import type { SourceCall } from "../contact-info/batch-contract";
import type { SourceReport } from "../contact-info/batch-views";
import type { ContactField, Contacts } from "../contact-info/contact";
import type { NormalizedPerson } from "../contact-info/person";
import { cachedFreshness, stampFound } from "./freshness";
import {
  atDailyCeiling,
  completedItem,
  decideItem,
  type ItemResult,
  outcomeOf,
  type SourcedResult,
} from "./item-decision";
import type { ContactProvider, FindRequest } from "./provider";
import { providersFor as configuredProviders, verifiersFor } from "./providers";
import { kvResultCache, type ResultCache, resultCacheKey } from "./result-cache";
import { readVendorConfig } from "./vendor-config";
import { kvVerdictCache } from "./verdict-cache";
import { type VerificationOptions, verifyEmails } from "./verification";
import type { EmailVerifier } from "./verifier";
import { type ProviderReport, runWaterfall, sourceCalls } from "./waterfall";
import { orderFinders } from "./waterfall-order";

/**
 * An item as the consumer has it: the person normalized and keyed once, at fan-out.
 * The queue message (queue-messages/item-message.ts) carries these; the enricher, a floor
 * below the batch, names only what it reads.
 */
export interface ItemToEnrich {
  environment: Environment;
  /**
   * The batch's owner, whose cached results and verdicts its items use; undefined for a batch kept
   * in a jurisdiction, as the caches are in KV, a global store (the consumer leaves it out).
   */
  customerId: string | undefined;
  fields: ContactField[];
  person: NormalizedPerson;
  personKey: string;
  /** The person key's hash, made at submission: its results' cache key. */
  hashes: { person: string };
  /** The batch's maxAgeDays: how old a cached result or verdict may be. */
  maxAgeDays: number;
  /** The finders' records (live, WATERFALL_ORDER learned): the providers are asked in the order they suggest. */
  learned?: Learned | undefined;
  attempt: number;
}

/**
 * Enriches items of any environment with that environment's providers and
 * verifiers, built once per enricher. Only live results and verdicts are cached: the sandbox is free, and a
 * cache would hide its reserved behaviours. Entries are the customer's own.
 */
export function enricher(env: Env, config: Config): (item: ItemToEnrich) => Promise<Resolution> {
  const { enrichment } = config;
  const providers = new Map<Environment, ContactProvider[]>();
  const providersOf = (environment: Environment): ContactProvider[] => {
    const built = providers.get(environment) ?? configuredProviders(environment, env, config);
    providers.set(environment, built);
    return built;
  };
  const verifiers = new Map<Environment, EmailVerifier[]>();
  const verifiersOf = (environment: Environment): EmailVerifier[] => {
    const built = verifiers.get(environment) ?? verifiersFor(environment, env, config);
    verifiers.set(environment, built);
    return built;
  };
  const cache = kvResultCache(
    env.RESULT_CACHE,
    enrichment.resultCacheTtlSeconds,
    enrichment.resultCacheNotFoundTtlSeconds,
  );

  const vendors = readVendorConfig(env);
  const providersFor = (environment: Environment, person: NormalizedPerson, learned: Learned | undefined) =>
    learned
      ? orderFinders(
          providersOf(environment),
          vendors.prices,
          learned,
          person.companyDomain,
          vendors.exploration,
          Math.random,
        )
      : providersOf(environment);

  return async ({ environment, customerId, fields, person, personKey, hashes, maxAgeDays, learned, attempt }) => {
    const owner = environment === "live" && customerId !== undefined ? { customerId, environment } : undefined;
    return enrichItem(
      { person, personKey, fields, attempt },
      {
        providers: providersFor(environment, person, learned),
        cache: owner && {
          store: cache,
          key: resultCacheKey(owner, fields, hashes.person),
        },
        verification: {
          verifiers: verifiersOf(environment),
          cache: owner ? kvVerdictCache(env.RESULT_CACHE, owner, enrichment.verdictCacheTtlSeconds) : undefined,
        },
        maxAgeDays,
        satisfiedConfidence: enrichment.satisfiedConfidence,
        maxAttempts: config.itemMaxAttempts,
      },
    );
  };
}

export type Resolution =
  /** `calls`: the data sources this attempt asked, for their scorecards (none for a cached result). */
  | { kind: "record"; result: ItemResult; reports: ProviderReport[]; calls?: SourceCall[] }
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
  /** How old a cached result or verdict may be, in days (the batch's maxAgeDays); absent: any the caches hold. */
  maxAgeDays?: number;
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
  const { maxAgeDays } = options;
  const verification = maxAgeDays === undefined ? options.verification : { ...options.verification, maxAgeDays };
  const cached = options.cache && maxAgeDays !== 0 && (await options.cache.store.get(options.cache.key));
  if (cached) {
    const canVerify = verification.verifiers.some((verifier) => verifier.configured !== false);
    const freshness = maxAgeDays === undefined ? "fresh" : cachedFreshness(cached, maxAgeDays, Date.now(), canVerify);
    if (freshness === "fresh") return { kind: "record", result: completedItem(cached, true), reports: [] };
    if (freshness === "reverify") return reverified(cached, request, verification, options.cache?.key);
  }

  const found = await runWaterfall(options.providers, request, options.satisfiedConfidence);
  const { reports, satisfied, transientFailures, held, retryAfterSeconds } = found;
  // Stamped with the time they were found; verification restamps the emails a verifier judges.
  const foundAt = new Date().toISOString();
  const emails = stampFound(found.emails, foundAt);
  const phones = stampFound(found.phones, foundAt);
  const sources = reports.map(({ name, outcome, reason }) => ({ name, outcome, ...(reason ? { reason } : {}) }));
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
    const verified = await verifyEmails(emails, request.person, verification);
    return {
      ...decision,
      found: { emails: verified.emails, phones },
      reports: [...reports, ...verified.reports.map(timeless)],
    };
  }
  const { result } = decision;
  const calls = sourceCalls(reports, request.person.companyDomain);
  if (result.status !== "completed") return { kind: "record", result, reports, calls };
  const verified = await verifyEmails(result.emails, request.person, verification);
  const cacheable = decision.cacheable && verified.reports.every(fullVerdict);
  const asked = [...result.sources, ...verified.reports];
  const verifiedResult: ItemResult = {
    ...result,
    ...outcomeOf({ emails: verified.emails, phones: result.phones }, asked),
    emails: verified.emails,
    sources: asked,
    ...(cacheable && options.cache ? { cacheKey: options.cache.key } : {}),
  };
  return { kind: "record", result: verifiedResult, reports: [...reports, ...verified.reports.map(timeless)], calls };
}

/**
 * A cached result too old to serve as it is, whose phones are fresh enough: its emails verified again
 * rather than found again (charged the verifications only, credits.ts), served from the cache with the
 * new verdicts and cached again with them (unless a verifier could not answer).
 */
async function reverified(
  cached: SourcedResult,
  request: FindRequest,
  verification: VerificationOptions,
  cacheKey: string | undefined,
): Promise<Resolution> {
  const verified = await verifyEmails(cached.emails, request.person, verification);
  const sources = [...cached.sources.filter((source) => source.kind !== "verifier"), ...verified.reports];
  const cacheable = verified.reports.every(fullVerdict);
  const result: ItemResult = {
    status: "completed",
    ...outcomeOf({ emails: verified.emails, phones: cached.phones }, sources),
    emails: verified.emails,
    phones: cached.phones,
    fromCache: true,
    reverified: true,
    sources,
    ...(cacheable && cacheKey ? { cacheKey } : {}),
  };
  return { kind: "record", result, reports: verified.reports.map(timeless) };
}

/** A verifier's report that leaves nothing to ask again: it neither failed nor was at its daily ceiling. */
const fullVerdict = (report: SourceReport): boolean => report.outcome !== "unavailable" && !atDailyCeiling(report);

// Verifications are timed by the upstream's own log lines; the report only counts outcomes.
const timeless = (report: SourceReport): ProviderReport => ({ ...report, ms: 0 });
