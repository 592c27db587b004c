// Ordered schema migrations of the account Durable Object. Never edit a shipped
// entry: append a new one. docs/storage.md describes every table and column.
import { applyMigrations } from "../base/sql-migrations";

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
  // Privacy: which batches hold a person (by hashed identifier key, with the hash of the
  // item's whole person key, the one its cached results are keyed by), the do-not-enrich
  // list (hashed identifier keys), and the receipts of erasures. Batches not yet wholly in the index
  // (new ones, and those from before it, until their next alarm) are asked by every erasure.
  `ALTER TABLE batches ADD COLUMN people_complete INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX batches_unindexed ON batches (id) WHERE people_complete = 0 AND deleted_at IS NULL;
   CREATE TABLE person_index (
     key TEXT NOT NULL,
     batch_id TEXT NOT NULL,
     person_hash TEXT NOT NULL,
     PRIMARY KEY (key, batch_id, person_hash)
   ) WITHOUT ROWID;
   CREATE INDEX person_index_by_batch ON person_index (batch_id);
   CREATE TABLE suppressions (key TEXT PRIMARY KEY, created_at TEXT NOT NULL) WITHOUT ROWID;
   CREATE INDEX suppressions_newest ON suppressions (created_at DESC, key DESC);
   CREATE TABLE erasures (id TEXT PRIMARY KEY, erased_at TEXT NOT NULL, items INTEGER NOT NULL, batches INTEGER NOT NULL);`,
  // Keyed hashes (contact-info/person-keys.ts). The suppression list's plain SHA-256 keys were set
  // aside in suppressions_unkeyed for the object to key (SQL has no HMAC and no secret; migration 7
  // drops the table, as no deployed list ever held such keys); the person index is forgotten, and
  // every batch, asked by every erasure until then, sends its people again.
  `CREATE TABLE suppressions_unkeyed (key TEXT PRIMARY KEY, created_at TEXT NOT NULL) WITHOUT ROWID;
   INSERT INTO suppressions_unkeyed SELECT key, created_at FROM suppressions;
   DELETE FROM suppressions;
   DELETE FROM person_index;
   UPDATE batches SET people_complete = 0;`,
  // The sources' scorecards: verified-valid hits, rate-limit answers and latency histograms per day and source;
  // and each source's record per company domain, which the learned order weighs.
  // Feedback on delivered contacts: refunds per batch and day, reports and refunds per source, and
  // the do-not-deliver list (keyed hashes of the contact values reported, contact-info/feedback.ts).
  `ALTER TABLE batches ADD COLUMN credits_refunded INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE usage_days ADD COLUMN credits_refunded INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE usage_sources ADD COLUMN reported INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE usage_sources ADD COLUMN credits_refunded INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE usage_sources ADD COLUMN verified_valid INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE usage_sources ADD COLUMN rate_limited INTEGER NOT NULL DEFAULT 0;
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
   CREATE TABLE do_not_deliver (key TEXT PRIMARY KEY, created_at TEXT NOT NULL) WITHOUT ROWID;`,
  // CRM connections (crm/): one per provider, the token sealed (crm/token-box.ts), never stored in the clear.
  `CREATE TABLE crm_connections (
     provider TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     base_url TEXT NOT NULL,
     sealed_token TEXT NOT NULL,
     connected_at TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // The project was never deployed (docs/storage.md): no account held plain SHA-256 suppressions, so
  // nothing keys suppressions_unkeyed any more, and the table goes (on a developer's machine, with any
  // key its local list had then: such a list is made again through POST …/privacy/suppressions).
  `DROP TABLE suppressions_unkeyed;`,
  // The CRM syncs made from each batch (crm/sync-erasure.ts): erasing a person or deleting a batch reaches them.
  `CREATE TABLE crm_syncs (
     batch_id TEXT NOT NULL,
     sync_id TEXT NOT NULL,
     PRIMARY KEY (batch_id, sync_id)
   ) WITHOUT ROWID;`,
];

export const migrate = (sql: SqlStorage): void => applyMigrations(sql, MIGRATIONS);
