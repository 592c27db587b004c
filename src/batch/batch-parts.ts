import { readConfig } from "../base/config";
import { kvResultCache, type ResultCache } from "../enrichment/result-cache";
import { EventStreams } from "./events/event-streams";
import { PageCache } from "./page-cache";
import { CacheWrites } from "./record/cache-writes";

/**
 * What a batch object works with, built once in its constructor: its bindings,
 * its storage and the caches it keeps. The create path, the record path and the
 * alarm's steps are functions of these, so the class is left with its RPC methods.
 */
export interface BatchParts {
  readonly env: Env;
  readonly storage: DurableObjectStorage;
  readonly sql: SqlStorage;
  readonly cache: ResultCache;
  readonly cacheWrites: CacheWrites;
  readonly pages: PageCache;
  /** The open progress streams, woken whenever items finish or the batch ends. */
  readonly events: EventStreams;
}

/** A batch object's parts, from its state and bindings: the result cache as configured, empty page and stream caches. */
export function batchParts(ctx: DurableObjectState, env: Env): BatchParts {
  const { resultCacheTtlSeconds, resultCacheNotFoundTtlSeconds } = readConfig(env).enrichment;
  const cache = kvResultCache(env.RESULT_CACHE, resultCacheTtlSeconds, resultCacheNotFoundTtlSeconds);
  return {
    env,
    storage: ctx.storage,
    sql: ctx.storage.sql,
    cache,
    cacheWrites: new CacheWrites(cache),
    pages: new PageCache(),
    events: new EventStreams(ctx.storage),
  };
}
