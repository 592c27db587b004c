import { DurableObject } from "cloudflare:workers";
import type { Tenant } from "../base/tenant";
import type { StoredResponse } from "../idempotency/record-policy";
import { type Begin, IdempotencyRecords } from "../idempotency/records";
import { ENDPOINT_TYPES, type EndpointType, type RateLimitSetting } from "./endpoint-types";
import { HitLog } from "./hit-log";
import { type McpAdmission, type McpAnswer, McpSessions } from "./mcp-sessions";
import { OpenStreams } from "./open-streams";
import { migrate } from "./schema";
import { type Decision, decide, type WindowUsage, windowUsage } from "./sliding-window";
import { decideRenewal, decideStream, type Renewal, type StreamDecision } from "./stream-leases";
import { WindowsInUse } from "./windows-in-use";

export interface ConsumeResult {
  decision: Decision;
  /** Every endpoint type's usage after this request, for GET /me/rate-limits: only when asked for (`withUsage`). */
  usage?: Record<EndpointType, WindowUsage>;
}

/**
 * The limiter's answer: a count (with, for a request allowed that carries an Idempotency-Key,
 * its key begun), or the calling key is revoked (nothing counted).
 */
export type LimiterAnswer = ({ revoked?: undefined; begun?: Begin } & ConsumeResult) | { revoked: true };

/** A request's Idempotency-Key, to begin if the request is allowed (middleware/idempotency.ts). */
export interface IdempotencyRequest {
  key: string;
  fingerprint: string;
  ttlSeconds: number;
  /** The customer: its jurisdiction names the batch id. */
  tenant: Tenant;
}

/** The answer to opening an event stream: a lease to renew, or why not. */
export type StreamAnswer =
  | { kind: "granted"; leaseId: string }
  | Exclude<StreamDecision, { kind: "granted" }>
  | { kind: "rate_limited"; decision: Decision }
  | { kind: "revoked" };

// Open event streams hold units of this type's budget (README "Rate limits").
const STREAM_TYPE: EndpointType = "contact_info_status";

// The other types' expired hits are swept at most this often: decisions count only hits inside
// the window, so a hit kept a moment longer changes nothing, and a busy limiter saves two
// statements on most calls.
const SWEEP_INTERVAL_MS = 1000;

/**
 * The request counts of one customer in one environment (all its keys), one
 * sliding window per endpoint type, counted in the object's SQLite. A Durable
 * Object runs one call at a time and `consume` never awaits, so concurrent
 * requests are decided one after another against the stored count. A decision
 * is one INSERT, and a read only when the oldest hits kept in memory have all
 * left the window (hit-log.ts); nothing is loaded when the object starts. It also keeps the leases of
 * the customer's open event streams, which it can end at once, holding the revocations.
 */
export class RateLimiter extends DurableObject<Env> {
  readonly #sql: SqlStorage;
  readonly #hits: HitLog;
  readonly #windows: WindowsInUse;
  /** The customer's revoked key ids, read once when the object starts: a handful at most. */
  readonly #revoked: Set<string>;
  readonly #streams: OpenStreams;
  readonly #keys: IdempotencyRecords;
  readonly #mcpSessions: McpSessions;
  #sweptAt = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    // Synchronous, so it completes before the first call is delivered.
    migrate(ctx.storage);
    this.#hits = new HitLog(this.#sql);
    this.#windows = new WindowsInUse(this.#sql);
    this.#revoked = new Set(
      this.#sql
        .exec<{ key_id: string }>("SELECT key_id FROM revoked_keys")
        .toArray()
        .map((row) => row.key_id),
    );
    this.#streams = new OpenStreams(this.#sql, Date.now());
    this.#keys = new IdempotencyRecords(this.#sql, "idempotency_records");
    this.#mcpSessions = new McpSessions(this.#sql);
  }

  /**
   * The one call a request makes here: refuses key `keyId` if it is revoked (nothing
   * counted), else counts the request (`consume`), and if it is allowed and carries an
   * Idempotency-Key, begins that key (`begun`). Revocation and the key's check ride on
   * the call every request already makes, so they cost no round trip of their own.
   */
  admit(
    keyId: string,
    endpointType: EndpointType,
    limits: Record<EndpointType, RateLimitSetting>,
    options: { withUsage?: boolean; idempotency?: IdempotencyRequest } = {},
  ): LimiterAnswer {
    if (this.#revoked.has(keyId)) return { revoked: true };
    // Synchronous: concurrent requests are decided, and their keys begun, one after another.
    const result = this.consume(endpointType, limits, options);
    if (!result.decision.allowed || options.idempotency === undefined) return result;
    return { ...result, begun: this.#begin(options.idempotency) };
  }

  /** The request that began `key` ended with a 2xx: it is replayed from now on. */
  completeKey(key: string, fingerprint: string, response: StoredResponse): void {
    this.#keys.complete(key, fingerprint, response);
  }

  /** The request that began `key` was refused before it created anything: the key is free again. */
  releaseKey(key: string, fingerprint: string): void {
    this.#keys.release(key, fingerprint);
  }

  /** The request that began `key` failed and may have left its batch: the key keeps its batch id, unheld. */
  abandonKey(key: string, fingerprint: string): void {
    this.#keys.abandon(key, fingerprint);
  }

  #begin({ key, fingerprint, ttlSeconds, tenant }: IdempotencyRequest): Begin {
    return this.#keys.begin(key, fingerprint, ttlSeconds, Date.now(), tenant.jurisdiction);
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
    const window = this.#hits.window(endpointType, now, windowSeconds);
    const decision = decide(window.log, now, limits[endpointType], this.#held(endpointType, now));
    if (decision.allowed) this.#hits.record(endpointType, now, windowSeconds, window.known);
    if (now - this.#sweptAt >= SWEEP_INTERVAL_MS) this.#sweep(now);
    if (!withUsage) return { decision };
    const usage = Object.fromEntries(
      ENDPOINT_TYPES.map((type) => [
        type,
        type === endpointType
          ? decision
          : windowUsage(
              this.#hits.window(type, now, limits[type].windowSeconds).log,
              now,
              limits[type],
              this.#held(type, now),
            ),
      ]),
    ) as Record<EndpointType, WindowUsage>;
    return { decision, usage };
  }

  /**
   * The one call an MCP request makes here (before its session's object sees it): refuses a revoked
   * key and a session that is not open (closed, idle, displaced, or never opened), counts its protocol
   * requests as mcp_protocol, then opens or touches its session. An opening answers the sessions it
   * displaced over the key's cap, which the door closes.
   */
  admitMcp(
    { keyId, protocolRequests, session, rules }: McpAdmission,
    limits: Record<EndpointType, RateLimitSetting>,
  ): McpAnswer {
    if (this.#revoked.has(keyId)) return { kind: "revoked" };
    const now = Date.now();
    if (session?.kind === "use" && !this.#mcpSessions.has(session.id, now, rules)) return { kind: "unknown_session" };
    for (let i = 0; i < protocolRequests; i++) {
      const { decision } = this.consume("mcp_protocol", limits);
      if (!decision.allowed) return { kind: "rate_limited", decision };
    }
    const opened = session?.kind === "open" ? this.#mcpSessions.open(session.id, keyId, now, rules) : [];
    if (session?.kind === "use") this.#mcpSessions.touch(session.id, now);
    return { kind: "admitted", displaced: opened };
  }

  /** An MCP session still answering a request is in use (its object's idle check says so). */
  touchMcpSession(sessionId: string): void {
    this.#mcpSessions.touch(sessionId, Date.now());
  }

  /** An MCP session closed (by its client, idle, or lost): its place under the cap frees. */
  closeMcpSession(sessionId: string): void {
    this.#mcpSessions.close(sessionId);
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
      this.#hits.window(STREAM_TYPE, now, setting.windowSeconds).log,
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
    for (const { type, windowSeconds } of this.#windows.forget(now)) this.#hits.forget(type, windowSeconds);
    for (const type of ENDPOINT_TYPES) this.#hits.deleteExpired(type, now, this.#windows.longestSeconds(type));
    this.#sweptAt = now;
  }
}
