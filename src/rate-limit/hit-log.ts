import type { EndpointType } from "./endpoint-types";
import type { WindowLog } from "./sliding-window";

// Expired hits deleted per endpoint type per call, so a limiter that sat idle
// while a large window expired catches up over a few calls instead of one slow one.
// Decisions never depend on it: they count only hits inside the window.
const MAX_DELETES_PER_CALL = 1000;

type Hit = { seq: number; at: number };

// Oldest hits of a window kept in memory, so most decisions need no read: they are read
// again, this many at a time, only when all of them have left the window.
const LIVE_HITS_KEPT = 64;

// Window lengths per endpoint type whose oldest hits are kept in memory: keys of one customer
// with different windows each keep theirs, so alternating keys read nothing. Beyond this the
// first kept is dropped (read again when needed): memory stays within 3 × 4 × 64 hits.
const LIVE_WINDOWS_KEPT = 4;

/**
 * What the object knows of one type's hits, valid while it is the only writer of
 * them (it is: one object per customer and environment): the newest hit and, per
 * window length, the oldest hits still inside that window, contiguous in `seq`.
 * The newest is read on the first call and when the clock went back; a window's
 * oldest when every kept one has left it.
 */
type KnownHits = { now: number; newest: Hit | undefined; live: Map<number, Hit[]> };

/**
 * The stored hits of one limiter (`hits`, see storage.md), per endpoint type, with what
 * memory keeps of them (KnownHits): the windows its decisions count, a hit recorded, the
 * expired hits deleted. The limiter decides; this only reads and writes the log.
 */
export class HitLog {
  readonly #sql: SqlStorage;
  readonly #known = new Map<EndpointType, KnownHits>();

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Forgets what memory kept of one window of `type`: its hits may be deleted now. */
  forget(type: EndpointType, windowSeconds: number): void {
    this.#known.get(type)?.live.delete(windowSeconds);
  }

  /**
   * Deletes hits that left the window, oldest first: times never decrease along `seq`,
   * so they are a prefix of the sequence, and at most MAX_DELETES_PER_CALL of them go.
   * Decisions never depend on it: they count only hits inside the window.
   */
  deleteExpired(type: EndpointType, now: number, windowSeconds: number): void {
    this.#sql.exec(
      `DELETE FROM hits WHERE endpoint_type = ?1 AND at <= ?2
         AND seq < (SELECT seq FROM hits WHERE endpoint_type = ?1 ORDER BY seq LIMIT 1) + ?3`,
      type,
      now - windowSeconds * 1000,
      MAX_DELETES_PER_CALL,
    );
  }

  /** The hits of `type` inside the window at `now`: from memory, read again only when needed (KnownHits). */
  window(type: EndpointType, now: number, windowSeconds: number): { known: KnownHits; log: WindowLog } {
    const cutoff = now - windowSeconds * 1000;
    let known = this.#known.get(type);
    if (!known || now < known.now) {
      const newest = this.#sql
        .exec<Hit>("SELECT seq, at FROM hits WHERE endpoint_type = ? ORDER BY seq DESC LIMIT 1", type)
        .toArray()[0];
      known = { now, newest, live: new Map() };
      this.#known.set(type, known);
    }
    known.now = now;
    let live = known.live.get(windowSeconds) ?? [];
    let left = 0;
    while (left < live.length && live[left]!.at <= cutoff) left++;
    if (left > 0) live = live.slice(left);
    const { newest } = known;
    if (live.length === 0 && newest !== undefined && newest.at > cutoff) {
      live = this.#sql
        .exec<Hit>(
          "SELECT seq, at FROM hits WHERE endpoint_type = ? AND at > ? ORDER BY at, seq LIMIT ?",
          type,
          cutoff,
          LIVE_HITS_KEPT,
        )
        .toArray();
    }
    if (!known.live.has(windowSeconds) && known.live.size >= LIVE_WINDOWS_KEPT)
      known.live.delete(known.live.keys().next().value!);
    known.live.set(windowSeconds, live);
    const first = live[0];
    const log: WindowLog =
      first === undefined || newest === undefined
        ? { count: 0, at: () => now }
        : {
            count: newest.seq - first.seq + 1,
            at: (index) =>
              live[index]?.at ??
              this.#sql
                .exec<Pick<Hit, "at">>(
                  "SELECT at FROM hits WHERE endpoint_type = ? AND seq = ?",
                  type,
                  first.seq + index,
                )
                .one().at,
          };
    return { known, log };
  }

  record(type: EndpointType, now: number, windowSeconds: number, known: KnownHits): void {
    // Times never decrease along `seq` (a clock step back is recorded as the newest time),
    // so deleting the oldest by time deletes a prefix of the sequence and leaves no gaps.
    const hit = { seq: known.newest ? known.newest.seq + 1 : 0, at: Math.max(now, known.newest?.at ?? now) };
    this.#sql.exec("INSERT INTO hits (endpoint_type, seq, at) VALUES (?, ?, ?)", type, hit.seq, hit.at);
    // Kept where the kept hits run up to it without a gap. An empty list means no hit inside
    // the window only for the window just read; another's may have left it with hits stored.
    for (const [seconds, live] of known.live) {
      const last = live[live.length - 1];
      const runsOn = last === undefined ? seconds === windowSeconds : last.seq === hit.seq - 1;
      if (runsOn && live.length < LIVE_HITS_KEPT) live.push(hit);
    }
    known.newest = hit;
  }
}
