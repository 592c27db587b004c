import type { NewestFirstPage } from "../../http/paging";
import type { ErasureReceipt } from "../schemas";
import { KEYS } from "./bound-keys";
import { addKeys, holdsAny, type KeyedHashListName, keysAmong, pageOf, removeKey } from "./keyed-hash-list";

// Privacy's part of the Account object (account/account.ts), which holds it and answers for it over RPC
// (its `privacy…` methods): the person index, erasure receipts and the two keyed-hash lists. Every key
// here is a keyed hash (contact-info/person-keys.ts); nothing here names a person.
// - The person index (docs/storage.md, person_index): which of the customer's batches hold a person, by
//   hashed identifier keys; each batch sends its entries a chunk at a time (person-index-chunks.ts), so an
//   erasure (privacy/erasure.ts) asks only the batches named.
// - Erasure receipts (erasures): what an erasure of a person did, read again by its id.

/** Index entries of a batch's items: [hashed identifier key, hash of the item's person key]. */
export type PersonIndexEntry = [key: string, personHash: string];

/** The consumer's screen of a group (AccountPrivacy.screen). */
export interface PrivacyScreen {
  suppressed: string[];
  withholds: boolean;
}

export class AccountPrivacy {
  readonly #storage: DurableObjectStorage;
  readonly #sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    this.#sql = storage.sql;
  }

  /**
   * A batch's report, within the account's transaction for it: adds its entries (an entry sent again, a
   * repeated report, is kept once); a batch emptied (deleted, or expired) holds no one any more.
   */
  indexBatch(
    batch: { id: string; deletedAt: string | null; expiredAt: string | null },
    entries: readonly PersonIndexEntry[],
  ) {
    if (batch.deletedAt !== null || batch.expiredAt !== null) {
      this.#sql.exec("DELETE FROM person_index WHERE batch_id = ?", batch.id);
      return;
    }
    if (entries.length === 0) return;
    this.#sql.exec(
      `INSERT INTO person_index (key, batch_id, person_hash) SELECT value ->> 0, ?, value ->> 1 FROM json_each(?) WHERE true
       ON CONFLICT DO NOTHING`,
      batch.id,
      JSON.stringify(entries),
    );
  }

  /**
   * The batches that hold any of `keys` (one search of the primary key per key), and the hashes their
   * items' results may be cached under; and the batches not yet wholly indexed, which may hold them too
   * (their people are sent once they complete): never a scan of the batches.
   */
  holders(keys: readonly string[]): { batchIds: string[]; personHashes: string[] } {
    const rows = this.#sql
      .exec<{ batch_id: string; person_hash: string }>(
        `SELECT batch_id, person_hash FROM person_index WHERE key IN (${KEYS})`,
        JSON.stringify(keys),
      )
      .toArray();
    const unindexed = this.#sql
      .exec<{ id: string }>(
        "SELECT id FROM batches INDEXED BY batches_unindexed WHERE people_complete = 0 AND deleted_at IS NULL",
      )
      .toArray();
    return {
      batchIds: [...new Set([...rows.map((row) => row.batch_id), ...unindexed.map((row) => row.id)])],
      personHashes: [...new Set(rows.map((row) => row.person_hash))],
    };
  }

  /** Stores the receipt and forgets where the person was; suppresses them unless told not to. One transaction. */
  saveErasure(receipt: ErasureReceipt, keys: readonly string[], suppress: boolean): void {
    this.#storage.transactionSync(() => {
      this.#sql.exec(
        "INSERT INTO erasures (id, erased_at, items, batches) VALUES (?, ?, ?, ?)",
        receipt.id,
        receipt.erasedAt,
        receipt.items,
        receipt.batches,
      );
      this.#sql.exec(`DELETE FROM person_index WHERE key IN (${KEYS})`, JSON.stringify(keys));
      if (suppress) addKeys(this.#sql, "suppressions", keys, receipt.erasedAt);
    });
  }

  erasure(id: string): ErasureReceipt | null {
    const row = this.#sql
      .exec<{ id: string; erased_at: string; items: number; batches: number }>(
        "SELECT * FROM erasures WHERE id = ?",
        id,
      )
      .toArray()[0];
    return row ? { id: row.id, erasedAt: row.erased_at, items: row.items, batches: row.batches } : null;
  }

  /**
   * The consumer's check, once per batch group of messages: of `keys`, those on the do-not-enrich list; and
   * whether the do-not-deliver list holds anything, so only a customer who reported feedback costs the
   * consumer a second call (among "do_not_deliver"), once the group's contacts are found. Asked through
   * the account's screenGroup, with the learned order's records when the waterfall learns its order.
   */
  screen(keys: readonly string[]): PrivacyScreen {
    return { suppressed: keysAmong(this.#sql, "suppressions", keys), withholds: holdsAny(this.#sql, "do_not_deliver") };
  }

  /** Puts keys on a list (idempotent: a listed key keeps its date); answers how many were new. */
  add(list: KeyedHashListName, keys: readonly string[]): number {
    return addKeys(this.#sql, list, keys, new Date().toISOString());
  }

  /** Whether the key was on the list (and is no more). */
  remove(list: KeyedHashListName, key: string): boolean {
    return removeKey(this.#sql, list, key);
  }

  page(list: KeyedHashListName, page: NewestFirstPage) {
    return pageOf(this.#sql, list, page);
  }

  /** Of `keys`, those on the list. */
  among(list: KeyedHashListName, keys: readonly string[]): string[] {
    return keysAmong(this.#sql, list, keys);
  }
}
