import type { Config } from "../config";
import type { Environment } from "../environment";
import type { ItemMessage, MessageItem } from "../queue/item-message";
import { enrichItem, type Resolution } from "./enrich-item";
import type { ContactProvider } from "./provider";
import { providersFor } from "./providers";
import { kvResultCache, resultCacheKey } from "./result-cache";

/** An item as the consumer has it: the person normalized and keyed once, at fan-out. */
export type ItemToEnrich = Pick<ItemMessage, "environment" | "fields"> & Pick<MessageItem, "person" | "personKey"> & { attempt: number };

/**
 * Enriches items of any environment with that environment's providers, built
 * once per enricher. Only live results are cached: the sandbox is free, and a
 * cache would hide its reserved behaviours.
 */
export function enricher(env: Env, config: Config): (item: ItemToEnrich) => Promise<Resolution> {
  const { enrichment } = config;
  const providers = new Map<Environment, ContactProvider[]>();
  const providersOf = (environment: Environment): ContactProvider[] => {
    const built = providers.get(environment) ?? providersFor(environment, env, config);
    providers.set(environment, built);
    return built;
  };
  const cache = kvResultCache(env.RESULT_CACHE, enrichment.resultCacheTtlSeconds, enrichment.resultCacheNotFoundTtlSeconds);

  return async ({ environment, fields, person, personKey, attempt }) =>
    enrichItem(
      { person, personKey, fields, attempt },
      {
        providers: providersOf(environment),
        cache: environment === "live" ? { store: cache, key: await resultCacheKey(environment, fields, personKey) } : undefined,
        satisfiedConfidence: enrichment.satisfiedConfidence,
        maxAttempts: config.itemMaxAttempts,
      },
    );
}
