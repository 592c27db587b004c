/**
 * Brings a Durable Object's SQLite up to date with its ordered list of migrations: the one way
 * every object migrates. Each list is append-only (a shipped entry is never edited), so a database
 * at version n needs only the entries from n on; `schema_version` records n. It runs in one
 * transaction (nested in the caller's, if any, as a savepoint): a migration that fails leaves the
 * schema and its version as they were, never half applied. Synchronous, so an object calling it in
 * its constructor is migrated before its first call is delivered.
 */
export function applyMigrations(storage: DurableObjectStorage, migrations: readonly string[]): void {
  const { sql } = storage;
  storage.transactionSync(() => {
    sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
    const current = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0]?.version ?? 0;
    for (let version = current; version < migrations.length; version++) sql.exec(migrations[version]!);
    if (current === 0) sql.exec("INSERT INTO schema_version (version) VALUES (?)", migrations.length);
    else if (current < migrations.length) sql.exec("UPDATE schema_version SET version = ?", migrations.length);
  });
}

/**
 * Whether an object's SQLite has a schema yet. An object that creates its tables only when it is
 * first written (a batch, a CRM sync) asks this in its constructor, and migrates only then: a read
 * of a guessed id leaves no storage behind.
 */
export function hasSchema(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").toArray().length > 0;
}
/** Values as an SQL list for a CHECK (… IN (…)) constraint, from the enum constant that names them. */
export const inList = (values: readonly string[]): string => values.map((value) => `'${value}'`).join(", ");
