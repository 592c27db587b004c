// Ordered schema migrations of the CRM sync Durable Object. Never edit a shipped entry: append a new
// one. docs/storage.md describes every table and column.
import { applyMigrations } from "../base/sql-migrations";
import { CRM_PROVIDERS } from "./crm";
import { RECORD_OUTCOMES, SYNC_MATCHES, SYNC_STATUSES } from "./sync-views";

const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE sync (
     id TEXT PRIMARY KEY,
     customer_id TEXT NOT NULL,
     environment TEXT NOT NULL,
     jurisdiction TEXT,
     batch_id TEXT NOT NULL,
     provider TEXT NOT NULL CHECK (provider IN (${list(CRM_PROVIDERS)})),
     match TEXT NOT NULL CHECK (match IN (${list(SYNC_MATCHES)})),
     fields TEXT NOT NULL,
     dry_run INTEGER NOT NULL,
     status TEXT NOT NULL CHECK (status IN (${list(SYNC_STATUSES)})),
     phase TEXT NOT NULL CHECK (phase IN ('items', 'records')),
     applying INTEGER NOT NULL DEFAULT 0,
     next_item INTEGER NOT NULL DEFAULT 0,
     waits INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     completed_at TEXT,
     applied_at TEXT,
     error_code TEXT,
     error_message TEXT
   );
   CREATE TABLE records (
     idx INTEGER PRIMARY KEY,
     match_key TEXT,
     record_id TEXT,
     candidates TEXT NOT NULL,
     done INTEGER NOT NULL,
     outcome TEXT CHECK (outcome IN (${list(RECORD_OUTCOMES)})),
     reason TEXT,
     changes TEXT NOT NULL DEFAULT '[]',
     error TEXT
   );
   CREATE INDEX records_pending ON records (idx) WHERE done = 0;
   CREATE INDEX records_by_key ON records (match_key);`,
  // The CRM account the sync was previewed against (an apply elsewhere is refused), whether this apply
  // wrote yet (one refused before it wrote leaves the preview applicable), when the batch's retention
  // ends (the sync goes with it), and which records an erasure emptied.
  `ALTER TABLE sync ADD COLUMN crm_account TEXT;
   ALTER TABLE sync ADD COLUMN wrote INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE sync ADD COLUMN batch_completed_at TEXT;
   ALTER TABLE records ADD COLUMN erased_at TEXT;`,
  // An undo (POST …/undo) is a sync of its own: the sync it restores, and on that one, its undo (one only).
  `ALTER TABLE sync ADD COLUMN undo_of TEXT;
   ALTER TABLE sync ADD COLUMN undone_by TEXT;`,
];

export const migrate = (sql: SqlStorage): void => applyMigrations(sql, MIGRATIONS);
