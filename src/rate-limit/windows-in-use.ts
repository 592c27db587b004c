import { ENDPOINT_TYPES, type EndpointType, type RateLimitSetting } from "./endpoint-types";

// A window length no key has used for this long stops holding hits, so a lowered window
// frees its storage within a week. A key back after longer than this with that window
// counts, for one window's span, only the hits its siblings' windows kept: its own older
// hits have left its window anyway. Keeping a window longer costs at most one window of hits.
export const WINDOW_FORGOTTEN_AFTER_MS = 7 * 86_400_000;

// A window's use is written at most this often (and when first seen), so most calls write nothing.
const USE_WRITTEN_EVERY_MS = 3_600_000;

/**
 * The window lengths the customer's keys use, per endpoint type (`windows`, see
 * storage.md). All the keys of a customer count the same hits, each over its own
 * window, so a hit may go only once it has left the longest of them. Read once
 * per object life, at the first call; a handful of rows.
 */
export class WindowsInUse {
  readonly #sql: SqlStorage;
  /** endpoint type → window seconds → the last use written. */
  #lastUse: Map<string, Map<number, number>> | undefined;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Records that a key with these limits made a call at `now`. */
  note(limits: Record<EndpointType, RateLimitSetting>, now: number): void {
    for (const type of ENDPOINT_TYPES) {
      const { windowSeconds } = limits[type];
      const uses = this.#uses(type);
      const last = uses.get(windowSeconds);
      if (last !== undefined && now - last < USE_WRITTEN_EVERY_MS) continue;
      this.#sql.exec(
        `INSERT INTO windows (endpoint_type, window_seconds, used_at) VALUES (?, ?, ?)
         ON CONFLICT DO UPDATE SET used_at = excluded.used_at`,
        type,
        windowSeconds,
        now,
      );
      uses.set(windowSeconds, now);
    }
  }

  /** The longest window of `type` in use: a hit older than it counts in no key's window. */
  longestSeconds(type: EndpointType): number {
    return Math.max(0, ...this.#uses(type).keys());
  }

  /** Forgets the windows no key used for WINDOW_FORGOTTEN_AFTER_MS, and names them. */
  forget(now: number): { type: EndpointType; windowSeconds: number }[] {
    const forgotten: { type: EndpointType; windowSeconds: number }[] = [];
    for (const type of ENDPOINT_TYPES) {
      const uses = this.#uses(type);
      for (const [windowSeconds, usedAt] of uses) {
        if (now - usedAt < WINDOW_FORGOTTEN_AFTER_MS) continue;
        uses.delete(windowSeconds);
        forgotten.push({ type, windowSeconds });
      }
    }
    if (forgotten.length > 0) this.#sql.exec("DELETE FROM windows WHERE used_at <= ?", now - WINDOW_FORGOTTEN_AFTER_MS);
    return forgotten;
  }

  #uses(type: EndpointType): Map<number, number> {
    const lastUse = this.#loaded();
    let uses = lastUse.get(type);
    if (!uses) {
      uses = new Map();
      lastUse.set(type, uses);
    }
    return uses;
  }

  #loaded(): Map<string, Map<number, number>> {
    if (this.#lastUse) return this.#lastUse;
    const lastUse = new Map<string, Map<number, number>>();
    const rows = this.#sql.exec<{ endpoint_type: string; window_seconds: number; used_at: number }>(
      "SELECT endpoint_type, window_seconds, used_at FROM windows",
    );
    for (const row of rows) {
      const uses = lastUse.get(row.endpoint_type) ?? new Map<number, number>();
      uses.set(row.window_seconds, row.used_at);
      lastUse.set(row.endpoint_type, uses);
    }
    this.#lastUse = lastUse;
    return lastUse;
  }
}
