import { DurableObject } from "cloudflare:workers";
import { log } from "../base/log";
import { applyMigrations } from "../base/sql-migrations";
import { environmentOfName } from "../base/tenant";
import { noteSizeForScrub } from "../privacy/storage/high-water";
import { type DeliveryQuery, listDeliveries, readDelivery } from "./delivery-log";
import {
  type DueDelivery,
  deleteOlderThan,
  dueDeliveries,
  insertDeliveries,
  nextDue,
  oldestCreatedAt,
  ownDelivery,
  recover,
  resend,
  saveAttempt,
} from "./delivery-store";
import { type DeliveryStatus, type EndpointEvent, MAX_ENDPOINTS } from "./endpoint-events";
import {
  countEndpoints,
  deleteEndpoint,
  disableEndpoint,
  endpointTarget,
  insertEndpoint,
  listEndpoints,
  noteOutcome,
  readEndpoint,
  rotateSecret,
  subscribers,
  updateEndpoint,
} from "./endpoint-store";
import { type HubConfig, readHubConfig } from "./hub-config";
import { HUB_MIGRATIONS } from "./hub-schema";
import { eraseItemPayloads, forgetBatchPayloads } from "./item-payloads";
import { type Attempt, postChecked } from "./post-event";
import { afterAttempt, disableReason, succeeded } from "./schedule";
import type { EndpointPatch } from "./views";

// Attempts one alarm run makes at most, side by side; the rest are made by the next run, at once.
const MAX_ATTEMPTS_PER_RUN = 10;

/** An event for the customer's endpoints: its id (the same for every endpoint), type and exact body. */
/** Where a batch's own webhook goes, redelivered by the hub: the URL and secret the batch had. */
const ownTarget = ({ ownUrl, ownSecret }: DueDelivery) =>
  ownUrl === null || ownSecret === null ? null : { url: ownUrl, secrets: [ownSecret] };

export type HubEvent = { eventId: string; type: EndpointEvent; payload: string };

/**
 * One customer's webhooks in one environment (docs/storage.md, "WebhookHub"): its endpoints, and every
 * delivery to them with its attempts and payload. Deliveries are attempted by the object's alarm and
 * retried on WEBHOOK_RETRY_SCHEDULE; the schedule is in SQLite and the alarm is durable, so a restart
 * (a deploy, an eviction, `wrangler dev` stopped and started) loses no delivery and sends none twice
 * beyond an attempt in flight at that moment. The same alarm ends the log's retention and disables
 * endpoints that have failed everything for WEBHOOK_DISABLE_AFTER_SECONDS. The rules are pure
 * (schedule.ts); the SQL is in endpoint-store.ts and delivery-store.ts.
 */
export class WebhookHub extends DurableObject<Env> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    // Synchronous (one transaction), so it completes before the first call is delivered.
    applyMigrations(ctx.storage, HUB_MIGRATIONS);
  }

  createEndpoint(input: { url: string; events: EndpointEvent[]; description?: string | undefined }) {
    if (countEndpoints(this.#sql) >= MAX_ENDPOINTS) return null;
    return insertEndpoint(this.#sql, input);
  }

  listEndpoints() {
    return listEndpoints(this.#sql);
  }

  getEndpoint(id: string) {
    return readEndpoint(this.#sql, id);
  }

  async updateEndpoint(id: string, patch: EndpointPatch) {
    const updated = updateEndpoint(this.#sql, id, patch);
    await this.#arm();
    return updated;
  }

  async deleteEndpoint(id: string) {
    const deleted = deleteEndpoint(this.#sql, id);
    await this.#arm();
    return deleted;
  }

  rotateSecret(id: string) {
    return rotateSecret(this.#sql, id, Date.now());
  }

  /** A webhook.test event to this endpoint, due now, whatever it subscribed to: the delivery's id, or null without the endpoint. */
  async sendTest(id: string): Promise<string | null> {
    if (!readEndpoint(this.#sql, id)) return null;
    const eventId = `evt_test_${crypto.randomUUID().replaceAll("-", "")}`;
    const now = Date.now();
    const payload = JSON.stringify({
      type: "webhook.test",
      timestamp: new Date(now).toISOString(),
      data: { endpointId: id },
    });
    const [made] = insertDeliveries(this.#sql, [id], { eventId, type: "webhook.test", payload }, now);
    await this.#arm();
    return made ?? null;
  }

  /** An event for every enabled endpoint subscribed to its type; sent again, it adds nothing (one delivery per endpoint and event). */
  async publish(event: HubEvent): Promise<number> {
    const endpoints = subscribers(this.#sql, event.type);
    if (endpoints.length === 0) return 0;
    const made = insertDeliveries(this.#sql, endpoints, event, Date.now());
    await this.#arm();
    return made.length;
  }

  /** A batch's item.completed events, each for every enabled endpoint subscribed to it, once per endpoint and event. */
  async publishItems(batchId: string, events: readonly { eventId: string; payload: string }[]): Promise<number> {
    const endpoints = subscribers(this.#sql, "item.completed");
    if (endpoints.length === 0) return 0;
    const now = Date.now();
    const made = events.flatMap((event) =>
      insertDeliveries(this.#sql, endpoints, { ...event, type: "item.completed", batchId }, now),
    );
    await this.#arm();
    return made.length;
  }

  /** Items of batch `batchId` were erased ([index, erasedAt]): they leave every stored payload (item-payloads.ts). */
  eraseItems(batchId: string, erased: [number, string][]): number {
    return erased.length === 0 ? 0 : eraseItemPayloads(this.ctx.storage, batchId, erased);
  }

  /** Batch `batchId` was deleted: its deliveries go, payloads zeroed first. */
  forgetBatch(batchId: string): number {
    return forgetBatchPayloads(this.ctx.storage, batchId);
  }

  listDeliveries(query: DeliveryQuery) {
    return listDeliveries(this.#sql, query);
  }

  getDelivery(id: string) {
    return readDelivery(this.#sql, id);
  }

  async redeliver(id: string): Promise<boolean> {
    const found = resend(this.#sql, id, Date.now());
    if (found) await this.#arm();
    return found;
  }

  /** Null without the endpoint; else how many deliveries are re-sent. */
  async recover(endpointId: string, since: string): Promise<number | null> {
    if (!readEndpoint(this.#sql, endpointId)) return null;
    const count = recover(this.#sql, endpointId, since, Date.now());
    await this.#arm();
    return count;
  }

  /** One attempt of a batch's own webhook (its WebhookSender made it), shown in the log. */
  async logOwnAttempt(
    event: { id: string; url: string; secret: string; body: string },
    attempt: Attempt & { at: number },
    status: DeliveryStatus,
  ): Promise<void> {
    const seq = ownDelivery(this.#sql, event, "batch.completed", attempt.at);
    saveAttempt(this.#sql, seq, attempt, { status, nextAttemptAt: null });
    await this.#arm();
  }

  override async alarm(): Promise<void> {
    const config = readHubConfig(this.env);
    const now = Date.now();
    const expired = deleteOlderThan(this.#sql, new Date(now - config.logRetentionSeconds * 1000).toISOString());
    if (expired > 0) log("webhook_log_expired", { deliveries: expired });
    const due = dueDeliveries(this.#sql, now, MAX_ATTEMPTS_PER_RUN);
    await Promise.all(due.map((delivery) => this.#attempt(delivery, config)));
    await this.#arm(due.length === MAX_ATTEMPTS_PER_RUN ? Date.now() : undefined);
  }

  async #attempt(delivery: DueDelivery, config: HubConfig): Promise<void> {
    const { endpointId } = delivery;
    const target = endpointId === null ? ownTarget(delivery) : endpointTarget(this.#sql, endpointId, Date.now());
    if (!target) return;
    // A hub is named after its tenant (tenantName); a name that says no environment is held to live's rule.
    const environment = environmentOfName(this.ctx.id.name) ?? "live";
    const attempt = await postChecked(
      this.env,
      environment,
      { url: target.url, id: delivery.id, body: delivery.payload, secrets: target.secrets },
      config.timeoutMs,
    );
    const at = Date.now();
    const next = afterAttempt(attempt, delivery.tries + 1, config.retryScheduleSeconds, at);
    saveAttempt(this.#sql, delivery.seq, { ...attempt, at }, next);
    log("webhook_endpoint_attempt", {
      delivery: delivery.id,
      endpoint: endpointId,
      status: attempt.statusCode,
      error: attempt.error,
      outcome: next.status,
    });
    if (endpointId === null) return;
    const ok = succeeded(attempt);
    noteOutcome(this.#sql, endpointId, ok, at);
    if (ok) return;
    const failingSince = endpointTarget(this.#sql, endpointId, at)?.failingSince ?? null;
    const reason = disableReason(failingSince, at, config.disableAfterSeconds);
    if (reason !== null && readEndpoint(this.#sql, endpointId)?.status === "enabled") {
      disableEndpoint(this.#sql, endpointId, reason);
      log("webhook_endpoint_disabled", { endpoint: endpointId });
    }
  }

  /** Notes the database's size for the scrub, and arms the alarm for the next thing due: a pending delivery (or `at`), else the oldest delivery's end of retention. */
  async #arm(at?: number): Promise<void> {
    // Every write ends here: the size it may have grown the database to is noted for the scrub (item-payloads.ts).
    noteSizeForScrub(this.ctx.storage);
    const config = readHubConfig(this.env);
    const oldest = oldestCreatedAt(this.#sql);
    const times = [
      at,
      nextDue(this.#sql),
      oldest === null ? null : Date.parse(oldest) + config.logRetentionSeconds * 1000,
    ].filter((time): time is number => typeof time === "number");
    if (times.length === 0) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(Date.now(), Math.min(...times)));
  }
}
