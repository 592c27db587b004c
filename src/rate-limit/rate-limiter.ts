import { DurableObject } from "cloudflare:workers";
import { ENDPOINT_TYPES, type EndpointType, type RateLimitSetting } from "./endpoint-types";
import { OpenStreams } from "./open-streams";
import { migrate } from "./schema";
import { type Decision, decide, type WindowLog, type WindowUsage, windowUsage } from "./sliding-window";
import { decideRenewal, decideStream, type Renewal, type StreamDecision } from "./stream-leases";
import { WindowsInUse } from "./windows-in-use";

export interface ConsumeResult {
  decision: Decision;
  /** Every endpoint type's usage after this request, for GET /me/rate-limits: only when asked for (`withUsage`). */
  usage?: Record<EndpointType, WindowUsage>;
}

/** The limiter's answer: a count, or the calling key is revoked (nothing counted). */
export type LimiterAnswer = ({ revoked?: undefined } & ConsumeResult) | { revoked: true };

/** The answer to opening an event stream: a lease to renew, or why not. */
export type StreamAnswer =
  | { kind: "granted"; leaseId: string }
  | Exclude<StreamDecision, { kind: "granted" }>
  | { kind: "rate_limited"; decision: Decision }
  | { kind: "revoked" };

// Open event streams hold units of this type's budget (README "Rate limits").
const STREAM_TYPE: EndpointType = "contact_info_status";

// Expired hits deleted per endpoint type per call, so a limiter that sat idle
// while a large window expired catches up over a few calls instead of one slow one.
// Decisions never depend on it: they count only hits inside the window.
const MAX_DELETES_PER_CALL = 1000;

// The other types' expired hits are swept at most this often: decisions count only hits inside
// the window, so a hit kept a moment longer changes nothing, and a busy limiter saves two
// statements on most calls.
const SWEEP_INTERVAL_MS = 1000;

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
 * The request counts of one customer in one environment (all its keys), one
 * sliding window per endpoint type, counted in the object's SQLite. A Durable
 * Object runs one call at a time and `consume` never awaits, so concurrent
 * requests are decided one after another against the stored count. A decision
 * is one INSERT, and a read only when the oldest hits kept in memory have all
 * left the window; nothing is loaded when the object starts. It also keeps the leases of
 * the customer's open event streams, which it can end at once, holding the revocations.
 */
export class RateLimiter extends DurableObject<Env> {
  readonly #sql: SqlStorage;
  readonly #known = new Map<EndpointType, KnownHits>();
  readonly #windows: WindowsInUse;
  /** The customer's revoked key ids, read once when the object starts: a handful at most. */
  readonly #revoked: Set<string>;
  readonly #streams: OpenStreams;
  #sweptAt = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    // Synchronous, so it completes before the first call is delivered.
    migrate(this.#sql);
    this.#windows = new WindowsInUse(this.#sql);
    this.#revoked = new Set(
      this.#sql
        .exec<{ key_id: string }>("SELECT key_id FROM revoked_keys")
        .toArray()
        .map((row) => row.key_id),
    );
    this.#streams = new OpenStreams(this.#sql, Date.now());
  }

  /**
   * The one call a request makes here: refuses key `keyId` if it is revoked (nothing
   * counted), else counts the request (`consume`). Revocation rides on the call every
   * request already makes, so it costs valid keys no round trip.
   */
  admit(
    keyId: string,
    endpointType: EndpointType,
    limits: Record<EndpointType, RateLimitSetting>,
    options: { withUsage?: boolean } = {},
  ): LimiterAnswer {
    return this.#revoked.has(keyId) ? { revoked: true } : this.consume(endpointType, limits, options);
  }

  /**
   * Decides and counts one request of `endpointType`. The other types' windows are
   * read only `withUsage`.
   */
  consume(
    endpointType: EndpointType,
    limits: Record<EndpointType, RateLimitSetting>,
    { withUsage = false } = {},
  ): ConsumeResult {
    const now = Date.now();
    this.#windows.note(limits, now);
    const { windowSeconds } = limits[endpointType];
    const window = this.#window(endpointType, now, windowSeconds);
    const decision = decide(window.log, now, limits[endpointType], this.#held(endpointType, now));
    if (decision.allowed) this.#record(endpointType, now, windowSeconds, window.known);
    if (now - this.#sweptAt >= SWEEP_INTERVAL_MS) this.#sweep(now);
    if (!withUsage) return { decision };
    const usage = Object.fromEntries(
      ENDPOINT_TYPES.map((type) => [
        type,
        type === endpointType
          ? decision
          : windowUsage(
              this.#window(type, now, limits[type].windowSeconds).log,
              now,
              limits[type],
              this.#held(type, now),
            ),
      ]),
    ) as Record<EndpointType, WindowUsage>;
    return { decision, usage };
  }

  /**
   * Refuses key `keyId` from the next call on (the key tool's revoke, through the admin API), and
   * ends its open streams at their next renewal (LEASE_RENEW_MS). Idempotent.
   */
  revoke(keyId: string): void {
    this.#sql.exec("INSERT OR IGNORE INTO revoked_keys (key_id, revoked_at) VALUES (?, ?)", keyId, Date.now());
    this.#revoked.add(keyId);
  }

  /**
   * A lease for one more event stream of key `keyId` on `batchId`, after its opening request was
   * counted: refused over the caps on streams (decideStream), or when the budget of `STREAM_TYPE`
   * has no unit left for the stream to hold while it is open.
   */
  openStream(keyId: string, batchId: string, limits: Record<EndpointType, RateLimitSetting>): StreamAnswer {
    if (this.#revoked.has(keyId)) return { kind: "revoked" };
    const now = Date.now();
    const decision = decideStream(this.#streams.live(now), batchId);
    if (decision.kind === "refused") return decision;
    const setting = limits[STREAM_TYPE];
    const budget = decide(
      this.#window(STREAM_TYPE, now, setting.windowSeconds).log,
      now,
      setting,
      this.#held(STREAM_TYPE, now),
    );
    if (!budget.allowed) return { kind: "rate_limited", decision: budget };
    return { kind: "granted", leaseId: this.#streams.open(keyId, batchId, now).leaseId };
  }

  /** Keeps a stream's lease: its stream ends unless this answers "renewed" (decideRenewal). */
  renewStream(leaseId: string): Renewal {
    const now = Date.now();
    const lease = this.#streams.get(leaseId);
    const renewal = decideRenewal(lease, this.#revoked, now);
    if (renewal === "renewed" && lease) this.#streams.renew(lease, now);
    else this.#streams.close(leaseId);
    return renewal;
  }

  closeStream(leaseId: string): void {
    this.#streams.close(leaseId);
  }

  /** The units of `type` that open streams hold. */
  #held(type: EndpointType, now: number): number {
    return type === STREAM_TYPE ? this.#streams.live(now).length : 0;
  }

  /**
   * Deletes, for every endpoint type, the hits that left the longest window any key
   * uses (WindowsInUse): the customer's keys count the same hits over their own windows.
   */
  #sweep(now: number): void {
    // A forgotten window's hits may go now, so what memory kept of them must go first.
    for (const { type, windowSeconds } of this.#windows.forget(now)) this.#known.get(type)?.live.delete(windowSeconds);
    for (const type of ENDPOINT_TYPES) this.#deleteExpired(type, now, this.#windows.longestSeconds(type));
    this.#sweptAt = now;
  }

  /**
   * Deletes hits that left the window, oldest first: times never decrease along `seq`,
   * so they are a prefix of the sequence, and at most MAX_DELETES_PER_CALL of them go.
   * Decisions never depend on it: they count only hits inside the window.
   */
  #deleteExpired(type: EndpointType, now: number, windowSeconds: number): void {
    this.#sql.exec(
      `DELETE FROM hits WHERE endpoint_type = ?1 AND at <= ?2
         AND seq < (SELECT seq FROM hits WHERE endpoint_type = ?1 ORDER BY seq LIMIT 1) + ?3`,
      type,
      now - windowSeconds * 1000,
      MAX_DELETES_PER_CALL,
    );
  }

  /** The hits of `type` inside the window at `now`: from memory, read again only when needed (KnownHits). */
  #window(type: EndpointType, now: number, windowSeconds: number): { known: KnownHits; log: WindowLog } {
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

  #record(type: EndpointType, now: number, windowSeconds: number, known: KnownHits): void {
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
