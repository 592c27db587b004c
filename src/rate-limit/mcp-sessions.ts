import type { Decision } from "./sliding-window";

// The customer's open MCP sessions, one row each (`mcp_sessions`, see storage.md), kept by its
// RateLimiter, which every MCP request already calls: so the cap per key is counted exactly, in one
// place, whatever isolate serves the request. The rules are pure functions; the class is their SQL.

/** How the deployment bounds sessions (config MCP_MAX_SESSIONS_PER_KEY, MCP_SESSION_IDLE_SECONDS). */
export interface SessionRules {
  maxPerKey: number;
  idleMs: number;
}

export interface SessionRow {
  sessionId: string;
  keyId: string;
  /** When the session last had a request (or, while it answers one, when its object said so). */
  usedAt: number;
}

// A session's own object closes it once idle (its timer); this registry forgets it a little later, so
// that the object, not the registry, decides, and a row outlives its object only when the object was
// lost (evicted, or a deploy): such a row holds its place for at most this much longer.
export const REGISTRY_GRACE_MS = 60_000;

export const isLive = (row: SessionRow, now: number, rules: SessionRules): boolean =>
  now - row.usedAt < rules.idleMs + REGISTRY_GRACE_MS;

/**
 * The sessions to close so that one more of the key fits its cap: none below it, else the least
 * recently used, as many as it takes (more than one only after the cap was lowered).
 */
export function sessionsToClose(liveOfKey: readonly SessionRow[], maxPerKey: number): string[] {
  const over = liveOfKey.length - maxPerKey + 1;
  if (over <= 0) return [];
  return [...liveOfKey]
    .sort((a, b) => a.usedAt - b.usedAt)
    .slice(0, over)
    .map((row) => row.sessionId);
}

export class McpSessions {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Whether `sessionId` is open at `now`; its row is deleted if it is not. */
  has(sessionId: string, now: number, rules: SessionRules): boolean {
    const row = this.#sql
      .exec<{ key_id: string; used_at: number }>(
        "SELECT key_id, used_at FROM mcp_sessions WHERE session_id = ?",
        sessionId,
      )
      .toArray()[0];
    if (!row) return false;
    if (isLive({ sessionId, keyId: row.key_id, usedAt: row.used_at }, now, rules)) return true;
    this.close(sessionId);
    return false;
  }

  /** Opens `sessionId` for `keyId`, closing the rows it displaces: answers their ids, whose objects must close. */
  open(sessionId: string, keyId: string, now: number, rules: SessionRules): string[] {
    this.#sql.exec("DELETE FROM mcp_sessions WHERE used_at <= ?", now - rules.idleMs - REGISTRY_GRACE_MS);
    const rows = this.#sql
      .exec<{ session_id: string; used_at: number }>(
        "SELECT session_id, used_at FROM mcp_sessions WHERE key_id = ?",
        keyId,
      )
      .toArray()
      .map((row) => ({ sessionId: row.session_id, keyId, usedAt: row.used_at }));
    const displaced = sessionsToClose(rows, rules.maxPerKey);
    for (const id of displaced) this.close(id);
    this.#sql.exec(
      "INSERT OR REPLACE INTO mcp_sessions (session_id, key_id, used_at) VALUES (?, ?, ?)",
      sessionId,
      keyId,
      now,
    );
    return displaced;
  }

  touch(sessionId: string, now: number): void {
    this.#sql.exec("UPDATE mcp_sessions SET used_at = ? WHERE session_id = ?", now, sessionId);
  }

  close(sessionId: string): void {
    this.#sql.exec("DELETE FROM mcp_sessions WHERE session_id = ?", sessionId);
  }
}

/** What the door asks of the limiter for one MCP request (one HTTP request, whatever its transport). */
export interface McpAdmission {
  keyId: string;
  /** The JSON-RPC requests in it that are not tool calls: one mcp_protocol unit each (a tool call counts as its tool). */
  protocolRequests: number;
  /** Its session: one to open (an initialize), or the one it names; none for a transport without sessions. */
  session?: { kind: "open" | "use"; id: string };
  rules: SessionRules;
}

export type McpAnswer =
  | { kind: "admitted"; displaced: string[] }
  | { kind: "rate_limited"; decision: Decision }
  | { kind: "unknown_session" }
  | { kind: "revoked" };
