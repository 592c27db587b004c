import { jurisdictionOfBatch } from "../base/batch-id";
import { logError } from "../base/log";
import type { ItemOutcome } from "../contact-info/batch-contract";
import { personHasher } from "../contact-info/person-keys";
import { batchCacheScope, type ResultCache, resultCacheKey } from "../enrichment/result-cache";
import type { BatchRow } from "./batch-row";

/**
 * The batch's writes to the result cache. Only the batch writes its results
 * there, and only those `record()` has just moved out of pending: a deleted
 * batch records nothing, so nothing is cached for it afterwards, even from
 * items in flight at the deletion. Writes under way are tracked, so the
 * purge of a deleted batch's entries starts only once they have landed.
 */
export class CacheWrites {
  readonly #cache: ResultCache;
  readonly #env: Env;
  readonly #pending = new Set<Promise<void>>();

  constructor(cache: ResultCache, env: Env) {
    this.#cache = cache;
    this.#env = env;
  }

  /**
   * Caches the outcomes marked `cacheable` among those `recorded` (their
   * indexes), under their items' person keys; started before the caller's next
   * await. A failed write is logged, not thrown: the cache is an optimization.
   */
  write(
    sql: SqlStorage,
    row: Pick<BatchRow, "id" | "customer_id" | "environment" | "fields">,
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
      (outcome) => outcome.status === "completed" && outcome.cacheable && wasRecorded.has(outcome.index),
    );
    if (cacheable.length === 0) return Promise.resolve();
    // The hash made at submission; an item stored before it is hashed now.
    const people = new Map(
      sql
        .exec<{ idx: number; person_key: string; person_hash: string | null }>(
          `SELECT idx, person_key, hashes ->> '$.person' AS person_hash FROM items
           WHERE idx IN (SELECT value FROM json_each(?)) AND person_key IS NOT NULL`,
          JSON.stringify(cacheable.map(({ index }) => index)),
        )
        .toArray()
        .map((row) => [row.idx, row]),
    );
    const { owner, fields } = batchCacheScope(row);
    const hasher = personHasher(this.#env, owner);
    const write = Promise.all(
      cacheable.map(async (outcome) => {
        const person = people.get(outcome.index);
        if (person === undefined || outcome.status !== "completed") return;
        const { emails, phones, sources } = outcome;
        const personHash = person.person_hash ?? (await hasher.hash([person.person_key]))[0]!;
        await this.#cache.put(resultCacheKey(owner, fields, personHash), { emails, phones, sources });
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
