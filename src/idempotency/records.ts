import { newBatchId } from "../base/batch-id";
import type { Jurisdiction } from "../base/jurisdiction";
import { decideBegin, HOLD_MS, type KeyRecord, type StoredResponse, storedResponseSchema } from "./record-policy";

export type Begin =
  | { kind: "run"; batchId: string; resumed: boolean }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "in_progress"; retryAfterSeconds: number }
  | { kind: "mismatch" };

/** A stored record, as its table holds it. */
export type RecordRow = {
  fingerprint: string;
  batch_id: string;
  response: string | null;
  held_until: number;
  expires_at: number;
};

/**
 * The Idempotency-Key records of one customer and environment, in the SQLite table `table`
 * of the object that holds them (the customer's RateLimiter). Every method is synchronous: an object runs one at a time, so of concurrent
 * requests with the same key exactly one begins; the rest see it in progress, or its stored
 * response once it has finished. The record names the batch id before the batch is created,
 * so a retry after a crash resumes that batch instead of making a second one.
 */
export class IdempotencyRecords {
  readonly #sql: SqlStorage;
  readonly #table: string;

  constructor(sql: SqlStorage, table: string) {
    this.#sql = sql;
    this.#table = table;
  }

  /** The record of `key`, expired or not (the caller sweeps first). */
  row(key: string): RecordRow | undefined {
    return this.#sql
      .exec<RecordRow>(
        `SELECT fingerprint, batch_id, response, held_until, expires_at FROM ${this.#table} WHERE key = ?`,
        key,
      )
      .toArray()[0];
  }

  /** Forgets the records whose time is up. */
  sweep(now: number): void {
    this.#sql.exec(`DELETE FROM ${this.#table} WHERE expires_at <= ?`, now);
  }

  /** `jurisdiction` is the customer's: the batch id chosen here names it (batch-id.ts). */
  begin(key: string, fingerprint: string, ttlSeconds: number, now: number, jurisdiction?: Jurisdiction): Begin {
    this.sweep(now);
    const decision = decideBegin(this.#record(key), fingerprint, now);
    switch (decision.kind) {
      case "start": {
        const batchId = newBatchId(jurisdiction);
        this.#sql.exec(
          `INSERT INTO ${this.#table} (key, fingerprint, batch_id, response, held_until, expires_at) VALUES (?, ?, ?, NULL, ?, ?)`,
          key,
          fingerprint,
          batchId,
          now + HOLD_MS,
          now + ttlSeconds * 1000,
        );
        return { kind: "run", batchId, resumed: false };
      }
      case "resume":
        this.#sql.exec(`UPDATE ${this.#table} SET held_until = ? WHERE key = ?`, now + HOLD_MS, key);
        return { kind: "run", batchId: decision.batchId, resumed: true };
      default:
        return decision;
    }
  }

  complete(key: string, fingerprint: string, response: StoredResponse): void {
    this.#sql.exec(
      `UPDATE ${this.#table} SET response = ? WHERE key = ? AND fingerprint = ?`,
      JSON.stringify(response),
      key,
      fingerprint,
    );
  }

  /** The request was refused before it created anything: free the key so a corrected retry runs afresh. */
  release(key: string, fingerprint: string): void {
    this.#sql.exec(
      `DELETE FROM ${this.#table} WHERE key = ? AND fingerprint = ? AND response IS NULL`,
      key,
      fingerprint,
    );
  }

  /**
   * The request failed in a way that may have left its batch behind: keep the
   * batch id for the retry, and end the hold so the retry need not wait.
   */
  abandon(key: string, fingerprint: string): void {
    this.#sql.exec(
      `UPDATE ${this.#table} SET held_until = 0 WHERE key = ? AND fingerprint = ? AND response IS NULL`,
      key,
      fingerprint,
    );
  }

  #record(key: string): KeyRecord | undefined {
    const row = this.row(key);
    if (!row) return undefined;
    return {
      fingerprint: row.fingerprint,
      batchId: row.batch_id,
      response: row.response === null ? null : storedResponseSchema.parse(JSON.parse(row.response)),
      heldUntil: row.held_until,
    };
  }
}
