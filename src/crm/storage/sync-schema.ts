// The CRM sync Durable Object's schema, one version while the project has never been deployed
// (docs/storage.md, "Migrations"); docs/storage.md describes every table and column. Its CHECKs list
// closed enums only: the providers grow with each CRM declared, so they are validated on read (sync-store.ts).
// From the first deploy on, a change is a migration appended here.
import { applyMigrations } from "../../base/sql-migrations";
import { RECORD_OUTCOMES, SYNC_MATCHES, SYNC_STATUSES } from "../schemas";

const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE sync (
     id TEXT PRIMARY KEY,
     customer_id TEXT NOT NULL,
     environment TEXT NOT NULL,
     jurisdiction TEXT,
     batch_id TEXT NOT NULL,
     provider TEXT NOT NULL,
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
     error_message TEXT,
     crm_account TEXT,
     wrote INTEGER NOT NULL DEFAULT 0,
     batch_completed_at TEXT,
     undo_of TEXT,
     undone_by TEXT
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
     error TEXT,
     erased_at TEXT
   );
   CREATE INDEX records_pending ON records (idx) WHERE done = 0;
   CREATE INDEX records_by_key ON records (match_key);`,
];

export const migrate = (storage: DurableObjectStorage): void => applyMigrations(storage, MIGRATIONS);
