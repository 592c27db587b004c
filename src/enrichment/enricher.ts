import type { Learned } from "../account/learned";
import type { Config } from "../base/config";
import type { Environment } from "../base/environment";
import type { ContactField } from "../contact-info/contact";
import type { NormalizedPerson } from "../contact-info/person";
import { enrichItem, type Resolution } from "./enrich-item";
import type { ContactProvider } from "./provider";
import { providersFor as configuredProviders, verifiersFor } from "./providers";
import { kvResultCache, resultCacheKey } from "./result-cache";
import { readVendorConfig } from "./vendor-config";
import { kvVerdictCache } from "./verdict-cache";
import type { EmailVerifier } from "./verifier";
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
