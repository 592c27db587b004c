import { DurableObject } from "cloudflare:workers";
import { IdempotencyRecords, type RecordRow } from "./records";

/**
 * Where a customer's Idempotency-Key records lived before they moved into its
 * RateLimiter (rate-limiter.ts), so that the key's check rides on the count every
 * request makes. Kept, read-only, for IDEMPOTENCY_TTL_SECONDS after the move: a
 * limiter that does not know a key asks here (`handOver`) and keeps what it finds,
 * so a retry across the deploy still replays or resumes. Past that time nothing
 * here can be live, and the class can be deleted (a wrangler `deleted_classes` migration).
 */
export class IdempotencyStore extends DurableObject<Env> {
  readonly #records: IdempotencyRecords;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS records (
      key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, batch_id TEXT NOT NULL, response TEXT,
      held_until INTEGER NOT NULL, expires_at INTEGER NOT NULL)`);
    this.#records = new IdempotencyRecords(ctx.storage.sql, "records");
  }

  /** The unexpired record of `key`, if this store still has one. */
  handOver(key: string): RecordRow | null {
    this.#records.sweep(Date.now());
    return this.#records.row(key) ?? null;
  }
}
