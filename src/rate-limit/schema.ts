// Ordered schema migrations of the RateLimiter Durable Object. Never edit a
// shipped entry: append a new one. docs/storage.md describes every table.
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
];

/** Applies the migrations this database has not seen yet, in order. */
export function migrate(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const current = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0]?.version ?? 0;
  for (let version = current; version < MIGRATIONS.length; version++) sql.exec(MIGRATIONS[version]!);
  if (current === 0) sql.exec("INSERT INTO schema_version (version) VALUES (?)", MIGRATIONS.length);
  else if (current < MIGRATIONS.length) sql.exec("UPDATE schema_version SET version = ?", MIGRATIONS.length);
}
