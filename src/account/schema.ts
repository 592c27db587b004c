// Ordered schema migrations of the account Durable Object. Never edit a shipped
// entry: append a new one. docs/storage.md describes every table and column.
import { applyMigrations } from "../base/sql-migrations";
import { BUDGET_TABLES } from "../credits/budget-store";

// One version while the project has never been deployed (docs/storage.md, "Migrations").
const MIGRATIONS: readonly string[] = [
  // The batch list and usage per UTC day and source, fed by the batches' outboxes (report.ts): credits
  // charged and refunded, and each batch's cap. people_complete: whether the person index holds all of
  // a batch's people (batches not yet wholly in it are asked by every erasure). The privacy tables hold
  // keyed hashes only (contact-info/person-keys.ts); a CRM connection's token is sealed (crm/token-box.ts);
  // crm_syncs: the CRM syncs made from each batch (crm/sync-erasure.ts), so erasing a person or deleting a batch reaches them.
  `CREATE TABLE batches (
     id TEXT PRIMARY KEY,
     total_items INTEGER NOT NULL,
     completed_items INTEGER NOT NULL,
     failed_items INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     completed_at TEXT,
     deleted_at TEXT,
     reported_seq INTEGER NOT NULL DEFAULT 0,
     credits_charged INTEGER NOT NULL DEFAULT 0,
     max_credits INTEGER,
     people_complete INTEGER NOT NULL DEFAULT 0,
     credits_refunded INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX batches_newest ON batches (created_at DESC, id DESC) WHERE deleted_at IS NULL;
   CREATE INDEX batches_unindexed ON batches (id) WHERE people_complete = 0 AND deleted_at IS NULL;
   CREATE TABLE usage_days (
     day TEXT PRIMARY KEY,
     items INTEGER NOT NULL DEFAULT 0,
     found INTEGER NOT NULL DEFAULT 0,
     not_found INTEGER NOT NULL DEFAULT 0,
     failed INTEGER NOT NULL DEFAULT 0,
     from_cache INTEGER NOT NULL DEFAULT 0,
     credits INTEGER NOT NULL DEFAULT 0,
     credits_refunded INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE usage_sources (
     day TEXT NOT NULL,
     source TEXT NOT NULL,
     calls INTEGER NOT NULL DEFAULT 0,
     found INTEGER NOT NULL DEFAULT 0,
     reported INTEGER NOT NULL DEFAULT 0,
     credits_refunded INTEGER NOT NULL DEFAULT 0,
     verified_valid INTEGER NOT NULL DEFAULT 0,
     rate_limited INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (day, source)
   );
   CREATE TABLE usage_latency (
     day TEXT NOT NULL,
     source TEXT NOT NULL,
     bucket INTEGER NOT NULL,
     calls INTEGER NOT NULL,
     PRIMARY KEY (day, source, bucket)
   ) WITHOUT ROWID;
   CREATE TABLE domain_sources (
     domain TEXT NOT NULL,
     source TEXT NOT NULL,
     calls INTEGER NOT NULL,
     hits INTEGER NOT NULL,
     valid INTEGER NOT NULL,
     PRIMARY KEY (domain, source)
   ) WITHOUT ROWID;
   CREATE TABLE person_index (
     key TEXT NOT NULL,
     batch_id TEXT NOT NULL,
     person_hash TEXT NOT NULL,
     PRIMARY KEY (key, batch_id, person_hash)
   ) WITHOUT ROWID;
   CREATE INDEX person_index_by_batch ON person_index (batch_id);
   CREATE TABLE suppressions (key TEXT PRIMARY KEY, created_at TEXT NOT NULL) WITHOUT ROWID;
   CREATE INDEX suppressions_newest ON suppressions (created_at DESC, key DESC);
   CREATE TABLE do_not_deliver (key TEXT PRIMARY KEY, created_at TEXT NOT NULL) WITHOUT ROWID;
   CREATE INDEX do_not_deliver_newest ON do_not_deliver (created_at DESC, key DESC);
   CREATE TABLE erasures (id TEXT PRIMARY KEY, erased_at TEXT NOT NULL, items INTEGER NOT NULL, batches INTEGER NOT NULL);
   CREATE TABLE crm_connections (
     provider TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     base_url TEXT NOT NULL,
     sealed_token TEXT NOT NULL,
     connected_at TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE crm_syncs (
     batch_id TEXT NOT NULL,
     sync_id TEXT NOT NULL,
     PRIMARY KEY (batch_id, sync_id)
   ) WITHOUT ROWID;${BUDGET_TABLES}`,
];

export const migrate = (storage: DurableObjectStorage): void => applyMigrations(storage, MIGRATIONS);
