import { DurableObject } from "cloudflare:workers";

export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export type Begin =
  | { kind: "new" }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "in_progress" }
  | { kind: "mismatch" };

// A request that took the key but never finished (its Worker died) releases it after this.
const ABANDONED_AFTER_MS = 60_000;

type Row = { fingerprint: string; response: string | null; started_at: number };

/**
 * The Idempotency-Key records of one API key. One object per key runs one call
 * at a time, so of concurrent requests with the same key exactly one begins;
 * the rest see it in progress, or its stored response once it has finished.
 */
export class IdempotencyStore extends DurableObject<Env> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#sql.exec(`CREATE TABLE IF NOT EXISTS records (
      key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, response TEXT, started_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`);
  }

  begin(key: string, fingerprint: string, ttlSeconds: number, now = Date.now()): Begin {
    this.#sql.exec("DELETE FROM records WHERE expires_at <= ?", now);
    const row = this.#sql.exec<Row>("SELECT fingerprint, response, started_at FROM records WHERE key = ?", key).toArray()[0];
    if (row && row.fingerprint !== fingerprint) return { kind: "mismatch" };
    if (row?.response) return { kind: "replay", response: JSON.parse(row.response) };
    if (row && now - row.started_at < ABANDONED_AFTER_MS) return { kind: "in_progress" };
    this.#sql.exec(
      "INSERT OR REPLACE INTO records (key, fingerprint, response, started_at, expires_at) VALUES (?, ?, NULL, ?, ?)",
      key,
      fingerprint,
      now,
      now + ttlSeconds * 1000,
    );
    return { kind: "new" };
  }

  complete(key: string, fingerprint: string, response: StoredResponse): void {
    this.#sql.exec("UPDATE records SET response = ? WHERE key = ? AND fingerprint = ?", JSON.stringify(response), key, fingerprint);
  }

  /** The request failed: free the key so a retry runs afresh. */
  release(key: string, fingerprint: string): void {
    this.#sql.exec("DELETE FROM records WHERE key = ? AND fingerprint = ? AND response IS NULL", key, fingerprint);
  }
}
