// Ordered schema migrations of the account Durable Object. Never edit a shipped
// entry: append a new one. docs/storage.md describes every table and column.
import { applyMigrations } from "../sql-migrations";

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE batches (
     id TEXT PRIMARY KEY,
     total_items INTEGER NOT NULL,
     completed_items INTEGER NOT NULL,
     failed_items INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     completed_at TEXT,
     deleted_at TEXT,
     reported_seq INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX batches_newest ON batches (created_at DESC, id DESC) WHERE deleted_at IS NULL;
   CREATE TABLE usage_days (
     day TEXT PRIMARY KEY,
     items INTEGER NOT NULL DEFAULT 0,
     found INTEGER NOT NULL DEFAULT 0,
     not_found INTEGER NOT NULL DEFAULT 0,
     failed INTEGER NOT NULL DEFAULT 0,
     from_cache INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE usage_sources (
     day TEXT NOT NULL,
     source TEXT NOT NULL,
     calls INTEGER NOT NULL DEFAULT 0,
     found INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (day, source)
   );`,
  // Credits: charged per day (from the batches' outbox rows), and per batch with its cap.
  `ALTER TABLE usage_days ADD COLUMN credits INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE batches ADD COLUMN credits_charged INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE batches ADD COLUMN max_credits INTEGER;`,
];

export const migrate = (sql: SqlStorage): void => applyMigrations(sql, MIGRATIONS);
