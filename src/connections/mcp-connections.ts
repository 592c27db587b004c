import { DurableObject } from "cloudflare:workers";
import { log } from "../base/log";
import { type Connection, connectionSchema } from "./connection";
import { migrate } from "./schema";

interface Row extends Record<string, SqlStorageValue> {
  id: string;
  key_id: string;
  client_id: string;
  client_name: string;
  scopes: string;
  allowance_credits: number;
  created_at: string;
  last_used_at: string | null;
}

/** A stored row, or null when it is not one this version can trust (then the connection counts as ended). */
function connectionOf(row: Row): Connection | null {
  const parsed = connectionSchema.safeParse({
    id: row.id,
    keyId: row.key_id,
    clientId: row.client_id,
    clientName: row.client_name,
    scopes: row.scopes.split(" ").filter(Boolean),
    allowanceCredits: row.allowance_credits,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  });
  if (!parsed.success) log("mcp_connection_row_invalid", { connectionId: row.id });
  return parsed.success ? parsed.data : null;
}

/**
 * One customer in one environment: the assistants connected with OAuth. The OAuth tokens live in
 * KV (OAUTH_KV), whose edge caches may serve a deleted token for a minute; every request with a
 * token asks here first, so ending a connection, or revoking the key it was granted with, stops it
 * at its next request wherever it runs.
 */
export class McpConnections extends DurableObject<Env> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    migrate(ctx.storage);
  }

  add(connection: Connection): void {
    this.#sql.exec(
      `INSERT INTO connections (id, key_id, client_id, client_name, scopes, allowance_credits, created_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      connection.id,
      connection.keyId,
      connection.clientId,
      connection.clientName,
      connection.scopes.join(" "),
      connection.allowanceCredits,
      connection.createdAt,
      connection.lastUsedAt,
    );
  }

  /** A request with the connection's token: the connection as it now is (and its use noted), or null once ended. */
  use(id: string, now: string): Connection | null {
    const row = this.#sql
      .exec<Row>("UPDATE connections SET last_used_at = ? WHERE id = ? RETURNING *", now, id)
      .toArray()[0];
    return row ? connectionOf(row) : null;
  }

  /** Every live connection, oldest first. */
  list(): Connection[] {
    return this.#sql
      .exec<Row>("SELECT * FROM connections ORDER BY created_at, id")
      .toArray()
      .flatMap((row) => connectionOf(row) ?? []);
  }

  /** Ends a connection; false if there was none by that id. */
  end(id: string): boolean {
    return this.#sql.exec("DELETE FROM connections WHERE id = ? RETURNING id", id).toArray().length > 0;
  }

  /** Ends every connection granted with key `keyId` (its revocation); answers how many. */
  endForKey(keyId: string): number {
    return this.#sql.exec("DELETE FROM connections WHERE key_id = ? RETURNING id", keyId).toArray().length;
  }
}
