// When an MCP session's object closes it: a pure plan its idle timer follows (mcp-session.ts).

export interface SessionActivity {
  /** Whether the object holds a session (it has nothing to close after an eviction or a close). */
  open: boolean;
  /** Requests whose answers are still streaming (a tool call at work, or waiting on its person). */
  answering: number;
  /** When its last request came, or its last answer ended. */
  usedAt: number;
}

export type IdleStep =
  | { kind: "close" }
  /** Look again at `at`; `inUse`: tell the registry the session is in use (it forgets idle ones). */
  | { kind: "wait"; at: number; inUse: boolean }
  | { kind: "none" };

/**
 * A session closes once no request came for `idleMs` and none is still answering. The standalone GET
 * stream a client may hold is not an answer: this server sends nothing on it, so it keeps nothing alive.
 */
export function idleStep({ open, answering, usedAt }: SessionActivity, now: number, idleMs: number): IdleStep {
  if (!open) return { kind: "none" };
  if (answering > 0) return { kind: "wait", at: now + idleMs, inUse: true };
  if (now - usedAt >= idleMs) return { kind: "close" };
  return { kind: "wait", at: usedAt + idleMs, inUse: false };
}
