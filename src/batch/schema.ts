import { ENVIRONMENTS } from "../base/environment";
import { applyMigrations, inList } from "../base/sql-migrations";
import { ITEM_OUTCOMES, ITEM_STATUSES, WEBHOOK_STATES } from "../contact-info/batch-views";

// A batch's schema, one version while the project has never been deployed (docs/storage.md,
// "Migrations"); docs/storage.md describes every table and column. Its CHECKs list the closed enums'
// values from their constants; a set that grows (an item's reason) is left out, as only a table rebuild
// could change a CHECK. From the first deploy on, a change is a migration appended here.
const SCHEMA = `
  CREATE TABLE batch (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    environment TEXT NOT NULL CHECK (environment IN (${inList(ENVIRONMENTS)})),
    key_id TEXT NOT NULL,
    fields TEXT NOT NULL,
    total_items INTEGER NOT NULL,
    completed_items INTEGER NOT NULL DEFAULT 0,
    failed_items INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    completed_at TEXT,
    next_enqueue_index INTEGER NOT NULL DEFAULT 0,
    enqueue_failures INTEGER NOT NULL DEFAULT 0,
    expired_at TEXT,
    webhook_url TEXT,
    webhook_secret TEXT,
    status_url TEXT,
    webhook_state TEXT CHECK (webhook_state IN (${inList(WEBHOOK_STATES)})),
    webhook_attempts INTEGER NOT NULL DEFAULT 0,
    webhook_last_status INTEGER,
    webhook_queued_at TEXT,
    webhook_attempted_at TEXT,
    webhook_enqueues INTEGER NOT NULL DEFAULT 0,
    deleted_at TEXT,
    outbox_seq INTEGER NOT NULL DEFAULT 0,
    credits_charged INTEGER NOT NULL DEFAULT 0,
    max_credits INTEGER,
    event_seq INTEGER NOT NULL DEFAULT 0,
    item_webhooks INTEGER NOT NULL DEFAULT 0,
    people_indexed INTEGER NOT NULL DEFAULT 0,
    credits_refunded INTEGER NOT NULL DEFAULT 0,
    max_age_days INTEGER,
    events_published INTEGER NOT NULL DEFAULT 1,
    webhook_refused TEXT
  );
  CREATE TABLE items (
    idx INTEGER PRIMARY KEY,
    external_id TEXT,
    input TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN (${inList(ITEM_STATUSES)})),
    outcome TEXT CHECK (outcome IN (${inList(ITEM_OUTCOMES)})),
    emails TEXT,
    phones TEXT,
    error_code TEXT,
    error_message TEXT,
    finished_at TEXT,
    leader_idx INTEGER,
    from_cache INTEGER NOT NULL DEFAULT 0,
    enqueued_at TEXT,
    enqueues INTEGER NOT NULL DEFAULT 0,
    person TEXT,
    person_key TEXT,
    sources TEXT,
    due_at TEXT,
    found_earlier TEXT,
    credits INTEGER NOT NULL DEFAULT 0,
    event_seq INTEGER,
    erased_at TEXT,
    hashes TEXT,
    reason TEXT,
    credits_refunded INTEGER NOT NULL DEFAULT 0,
    feedback TEXT
  );
  CREATE INDEX items_by_leader ON items (leader_idx) WHERE leader_idx IS NOT NULL;
  CREATE INDEX items_by_status ON items (status, idx);
  CREATE INDEX items_by_due ON items (due_at) WHERE status = 'pending' AND leader_idx IS NULL AND due_at IS NOT NULL;
  CREATE INDEX items_with_earlier_finds ON items (idx) WHERE found_earlier IS NOT NULL;
  CREATE INDEX items_by_event ON items (event_seq) WHERE event_seq IS NOT NULL;
  CREATE INDEX items_unnumbered ON items (idx) WHERE event_seq IS NULL AND status <> 'pending';
  CREATE TABLE outbox (seq INTEGER PRIMARY KEY, day TEXT NOT NULL, usage TEXT NOT NULL, ledger TEXT);
  CREATE TABLE cache_purge (key TEXT NOT NULL);
  CREATE TABLE item_deliveries (
    seq INTEGER PRIMARY KEY,
    items TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN (${inList(WEBHOOK_STATES)})),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_status INTEGER,
    enqueues INTEGER NOT NULL DEFAULT 0,
    queued_at TEXT,
    attempted_at TEXT
  );
  CREATE INDEX item_deliveries_by_state ON item_deliveries (state, seq);
  CREATE TABLE endpoint_item_events (first_idx INTEGER PRIMARY KEY, items TEXT NOT NULL, finished_at TEXT NOT NULL);`;

const MIGRATIONS: readonly string[] = [SCHEMA];

/** A batch's database at the latest version: a new one is created, an existing one brought up to date. */
export function migrate(storage: DurableObjectStorage): void {
  applyMigrations(storage, MIGRATIONS);
}

// Whether a batch exists yet: asked as every object that makes its tables on first write asks it.
export { hasSchema } from "../base/sql-migrations";
