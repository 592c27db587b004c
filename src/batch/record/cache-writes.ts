import { jurisdictionOfBatch } from "../../base/batch-id";
import { logError } from "../../base/log";
import type { ItemOutcome } from "../../contact-info/batch-contract";
import type { ResultCache } from "../../enrichment/result-cache";
import type { BatchRow } from "../batch-row";

/**
 * The batch's writes to the result cache. Only the batch writes its results
 * there, and only those `record()` has just moved out of pending: a deleted
 * batch records nothing, so nothing is cached for it afterwards, even from
 * items in flight at the deletion. Writes under way are tracked, so the
 * purge of a deleted batch's entries starts only once they have landed.
 */
export class CacheWrites {
  readonly #cache: ResultCache;
  readonly #pending = new Set<Promise<void>>();

  constructor(cache: ResultCache) {
    this.#cache = cache;
  }

  /**
   * Caches the outcomes that carry a `cacheKey` among those `recorded` (their
   * indexes), under that key: the consumer made it from the person's hash, which
   * its message carried, so nothing is read back here. Started before the caller's
   * next await. A failed write is logged, not thrown: the cache is an optimization.
   */
  write(
    row: Pick<BatchRow, "id" | "environment">,
    outcomes: readonly ItemOutcome[],
    recorded: readonly number[],
  ): Promise<void> {
    // A customer with a jurisdiction keeps its results in its batches only: KV is a global store.
    if (row.environment !== "live" || jurisdictionOfBatch(row.id)) return Promise.resolve();
    const wasRecorded = new Set(recorded);
    // Of two outcomes for one item, the first is the one recorded.
    const first = new Map<number, ItemOutcome>();
    for (const outcome of outcomes) if (!first.has(outcome.index)) first.set(outcome.index, outcome);
    const cacheable = [...first.values()].filter(
      (outcome) => outcome.status === "completed" && outcome.cacheKey !== undefined && wasRecorded.has(outcome.index),
    );
    if (cacheable.length === 0) return Promise.resolve();
    const write = Promise.all(
      cacheable.map(async (outcome) => {
        if (outcome.status !== "completed" || outcome.cacheKey === undefined) return;
        const { emails, phones, sources } = outcome;
        await this.#cache.put(outcome.cacheKey, { emails, phones, sources });
      }),
    ).then(
      () => undefined,
      (error) => logError("result_cache_write_failed", error, { batchId: row.id, items: cacheable.length }),
    );
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
    return write;
  }

  /** Resolves once every write started so far has landed (or failed). */
  async settled(): Promise<void> {
    await Promise.all(this.#pending);
  }
}
