// The RateLimiter Durable Object's schema: one version while the project has never been deployed
// (docs/storage.md, "Migrations"); from the first deploy on, append a migration, never edit a
// shipped one. docs/storage.md describes every table.
import { applyMigrations } from "../base/sql-migrations";

const MIGRATIONS: readonly string[] = [
  // hits: one row per allowed request still possibly inside its window. `seq` numbers an endpoint
  // type's hits in time order without gaps (only the oldest are ever deleted), so a window's count is
  // a difference of two sequence numbers and its k-th oldest hit one primary-key lookup: every
  // decision is O(log n). windows: the window lengths the customer's keys use, per endpoint type, and
  // when a key last used each: hits are kept for the longest of them, since all the keys count the
  // same hits. revoked_keys: the limiter sees every request, so it refuses them at once, whatever copy
  // of the key record a Worker isolate or KV's edge still holds. stream_leases: one per open event
  // stream, so the caps on streams hold across an object restart (renewals are kept in memory,
  // open-streams.ts). idempotency_records: the customer's Idempotency-Keys (idempotency/records.ts),
  // here so that a request's key is begun by the call that counts it. mcp_sessions: the open MCP sessions
  // (mcp-sessions.ts), so the cap per key is counted in one place.
  `CREATE TABLE hits (
     endpoint_type TEXT NOT NULL,
     seq INTEGER NOT NULL,
     at INTEGER NOT NULL,
     PRIMARY KEY (endpoint_type, seq)
   ) WITHOUT ROWID;
   CREATE INDEX hits_by_time ON hits (endpoint_type, at);
   CREATE TABLE windows (
     endpoint_type TEXT NOT NULL,
     window_seconds INTEGER NOT NULL,
     used_at INTEGER NOT NULL,
     PRIMARY KEY (endpoint_type, window_seconds)
   ) WITHOUT ROWID;
   CREATE TABLE revoked_keys (
     key_id TEXT PRIMARY KEY,
     revoked_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE stream_leases (
     lease_id TEXT PRIMARY KEY,
     key_id TEXT NOT NULL,
     batch_id TEXT NOT NULL,
     opened_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE idempotency_records (
     key TEXT PRIMARY KEY,
     fingerprint TEXT NOT NULL,
     batch_id TEXT NOT NULL,
     response TEXT,
     held_until INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE mcp_sessions (
     session_id TEXT PRIMARY KEY,
     key_id TEXT NOT NULL,
     used_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX mcp_sessions_by_key ON mcp_sessions (key_id);
   CREATE INDEX mcp_sessions_by_use ON mcp_sessions (used_at);`,
];

export const migrate = (storage: DurableObjectStorage): void => applyMigrations(storage, MIGRATIONS);
