import type { Learned } from "../account/learned";
import type { Config } from "../base/config";
import type { Environment } from "../base/environment";
import type { ContactField } from "../contact-info/contact";
import type { NormalizedPerson } from "../contact-info/person";
import { personHasher } from "../contact-info/person-keys";
import { DEFAULT_MAX_AGE_DAYS } from "../contact-info/submission";
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
 * The queue message (batch/item-message.ts) carries these; the enricher, a floor
 * below the batch, names only what it reads.
 */
export interface ItemToEnrich {
  environment: Environment;
  /** Absent in messages of deploys before the message carried its customer. */
  customerId?: string | undefined;
  fields: ContactField[];
  person: NormalizedPerson;
  personKey: string;
  /** The person key's hash, made at submission; absent in messages of older deploys. */
  hashes?: { person: string } | undefined;
  /** The batch's maxAgeDays: how old a cached result or verdict may be; absent: DEFAULT_MAX_AGE_DAYS. */
  maxAgeDays?: number | undefined;
  /** The finders' records (live, WATERFALL_ORDER learned): the providers are asked in the order they suggest. */
  learned?: Learned | undefined;
  attempt: number;
}

/**
 * Enriches items of any environment with that environment's providers and
 * verifiers, built once per enricher. Only live results and verdicts are cached: the sandbox is free, and a
 * cache would hide its reserved behaviours. Entries are the customer's own; a
 * message from a deploy before it carried its customer asks the providers.
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
          key: resultCacheKey(owner, fields, hashes?.person ?? (await personHasher(env, owner).hash([personKey]))[0]!),
        },
        verification: {
          verifiers: verifiersOf(environment),
          cache: owner ? kvVerdictCache(env.RESULT_CACHE, owner, enrichment.verdictCacheTtlSeconds) : undefined,
        },
        maxAgeDays: maxAgeDays ?? DEFAULT_MAX_AGE_DAYS,
        satisfiedConfidence: enrichment.satisfiedConfidence,
        maxAttempts: config.itemMaxAttempts,
      },
    );
  };
}
