// The McpConnections object's schema: one version while the project has never been deployed
// (docs/storage.md, "Migrations"); from the first deploy on, append a migration, never edit a shipped one.
import { applyMigrations } from "../base/sql-migrations";

const MIGRATIONS: readonly string[] = [
  // connections: one row per assistant a person let in with one of the tenant's keys; a row deleted is
  // a connection ended, and its token is refused from its next request on. scopes: space-separated.
  `CREATE TABLE connections (
     id TEXT PRIMARY KEY,
     key_id TEXT NOT NULL,
     client_id TEXT NOT NULL,
     client_name TEXT NOT NULL,
     scopes TEXT NOT NULL,
     allowance_credits INTEGER NOT NULL CHECK (allowance_credits >= 0),
     created_at TEXT NOT NULL,
     last_used_at TEXT
   ) WITHOUT ROWID;
   CREATE INDEX connections_by_key ON connections (key_id);`,
];

export const migrate = (storage: DurableObjectStorage): void => applyMigrations(storage, MIGRATIONS);
