// The customer's CRM connections, in its account object: one row per provider, its token sealed
// by the CRM room (crm/token-box.ts) before it gets here, so this object never holds it in the clear;
// and the syncs made from each batch, so an erasure or a batch's deletion reaches them.

export interface StoredConnection {
  provider: string;
  accountId: string;
  baseUrl: string;
  sealedToken: string;
  connectedAt: string;
}

type ConnectionRow = {
  provider: string;
  account_id: string;
  base_url: string;
  sealed_token: string;
  connected_at: string;
};

const fromRow = (row: ConnectionRow): StoredConnection => ({
  provider: row.provider,
  accountId: row.account_id,
  baseUrl: row.base_url,
  sealedToken: row.sealed_token,
  connectedAt: row.connected_at,
});

/** Saves a connection, replacing the provider's earlier one. */
export function saveConnection(sql: SqlStorage, connection: StoredConnection): void {
  sql.exec(
    `INSERT INTO crm_connections (provider, account_id, base_url, sealed_token, connected_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (provider) DO UPDATE SET account_id = excluded.account_id, base_url = excluded.base_url,
       sealed_token = excluded.sealed_token, connected_at = excluded.connected_at`,
    connection.provider,
    connection.accountId,
    connection.baseUrl,
    connection.sealedToken,
    connection.connectedAt,
  );
}

export function readConnection(sql: SqlStorage, provider: string): StoredConnection | null {
  const row = sql.exec<ConnectionRow>("SELECT * FROM crm_connections WHERE provider = ?", provider).toArray()[0];
  return row ? fromRow(row) : null;
}

export function listConnections(sql: SqlStorage): StoredConnection[] {
  return sql.exec<ConnectionRow>("SELECT * FROM crm_connections ORDER BY provider").toArray().map(fromRow);
}

export function removeConnection(sql: SqlStorage, provider: string): boolean {
  return sql.exec("DELETE FROM crm_connections WHERE provider = ?", provider).rowsWritten > 0;
}

/** Notes that sync `syncId` is made from batch `batchId`'s items; idempotent. */
export function noteSync(sql: SqlStorage, batchId: string, syncId: string): void {
  sql.exec("INSERT OR IGNORE INTO crm_syncs (batch_id, sync_id) VALUES (?, ?)", batchId, syncId);
}

/** The syncs made from `batchIds`, each with its batch. */
export function syncsOf(sql: SqlStorage, batchIds: readonly string[]): { batchId: string; syncId: string }[] {
  const wanted = new Set(batchIds);
  return sql
    .exec<{ batch_id: string; sync_id: string }>("SELECT batch_id, sync_id FROM crm_syncs ORDER BY batch_id")
    .toArray()
    .filter((row) => wanted.has(row.batch_id))
    .map((row) => ({ batchId: row.batch_id, syncId: row.sync_id }));
}

/** Forgets the syncs of a batch whose syncs are gone (deleted with it, or past its retention). */
export function forgetSyncs(sql: SqlStorage, batchId: string): void {
  sql.exec("DELETE FROM crm_syncs WHERE batch_id = ?", batchId);
}
