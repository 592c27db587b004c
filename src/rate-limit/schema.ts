// Ordered schema migrations of the RateLimiter Durable Object. Never edit a
// shipped entry: append a new one. docs/storage.md describes every table.
import { applyMigrations } from "../base/sql-migrations";

const MIGRATIONS: readonly string[] = [
  // One row per allowed request still possibly inside its window. `seq` numbers
  // an endpoint type's hits in time order without gaps (only the oldest are ever
  // deleted), so a window's count is a difference of two sequence numbers and its
  // k-th oldest hit one primary-key lookup: every decision is O(log n).
  `CREATE TABLE hits (
     endpoint_type TEXT NOT NULL,
     seq INTEGER NOT NULL,
     at INTEGER NOT NULL,
     PRIMARY KEY (endpoint_type, seq)
   ) WITHOUT ROWID;
   CREATE INDEX hits_by_time ON hits (endpoint_type, at);`,
  // The window lengths the customer's keys use, per endpoint type, and when a key last used
  // each: hits are kept for the longest of them, since all the keys count the same hits.
  `CREATE TABLE windows (
     endpoint_type TEXT NOT NULL,
     window_seconds INTEGER NOT NULL,
     used_at INTEGER NOT NULL,
     PRIMARY KEY (endpoint_type, window_seconds)
   ) WITHOUT ROWID;`,
  // The customer's revoked keys: the limiter sees every request, so it refuses them at once,
  // whatever copy of the key record a Worker isolate or KV's edge still holds.
  `CREATE TABLE revoked_keys (
     key_id TEXT PRIMARY KEY,
     revoked_at INTEGER NOT NULL
   ) WITHOUT ROWID;`,
  // The customer's open event streams, one lease each, so the caps on streams hold across an
  // object restart; renewals are kept in memory (open-streams.ts).
  `CREATE TABLE stream_leases (
     lease_id TEXT PRIMARY KEY,
     key_id TEXT NOT NULL,
     batch_id TEXT NOT NULL,
     opened_at INTEGER NOT NULL
   ) WITHOUT ROWID;`,
  // The customer's Idempotency-Key records (idempotency/records.ts), here so that a request's key
  // is begun by the call that counts it. idempotency_moved holds when a limiter that already
  // existed took them over (an existing database has its schema_version row while this runs; a
  // new one not yet): for IDEMPOTENCY_TTL_SECONDS from then, a key it does not know is asked of
  // the IdempotencyStore they used to live in.
  `CREATE TABLE idempotency_records (
     key TEXT PRIMARY KEY,
     fingerprint TEXT NOT NULL,
     batch_id TEXT NOT NULL,
     response TEXT,
     held_until INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE idempotency_moved (at INTEGER NOT NULL);
   INSERT INTO idempotency_moved (at) SELECT CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM schema_version;`,
  // The project was never deployed (docs/storage.md): no IdempotencyStore held a live key, so no limiter
  // asks one (the class is deleted, wrangler.toml v9), and when the records moved is no longer read.
  `DROP TABLE idempotency_moved;`,
  // The customer's open MCP sessions (mcp-sessions.ts): the cap per key counts them, the least recently
  // used closes first, and a row not used for the idle time (and a grace) is forgotten.
  `CREATE TABLE mcp_sessions (
     session_id TEXT PRIMARY KEY,
     key_id TEXT NOT NULL,
     used_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX mcp_sessions_by_key ON mcp_sessions (key_id);
   CREATE INDEX mcp_sessions_by_use ON mcp_sessions (used_at);`,
];

export const migrate = (sql: SqlStorage): void => applyMigrations(sql, MIGRATIONS);
