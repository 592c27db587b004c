import type { ResultCache } from "../enrichment/result-cache";
import type { CacheWrites } from "./cache-writes";
import type { EventStreams } from "./event-streams";
import type { PageCache } from "./page-cache";

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
