import { DurableObject } from "cloudflare:workers";
import { readConfig } from "../config";
import type { ContactField, ItemError } from "../contact-info/contact";
import type { Environment } from "../environment";
import { log, logError } from "../log";
import { retryDelaySeconds } from "../queue/backoff";
import {
  chunkForSend,
  type ItemMessage,
  MAX_MESSAGE_BYTES,
  MAX_MESSAGES_PER_SEND,
  MESSAGE_CONTENT_TYPE,
  messageBytes,
  sendSplitting,
} from "../queue/item-message";
import type { StatusPage } from "../contact-info/status-query";
import { encodeCursor } from "./cursor";
import { earliest, itemRedrive, latest, millis, planOpenBatch, planWebhook, redriveCutoff } from "./redrive";
import { leaderIndexes } from "./leaders";
import { hasSchema, migrate } from "./schema";
import {
  type BatchOwner,
  type BatchSummary,
  type CreatedBatch,
  batchStatus,
  type ItemOutcome,
  type NewBatch,
  type StatusRead,
  type WebhookEvent,
  type WebhookState,
  type WebhookView,
} from "./status";

type BatchRow = {
  id: string;
  customer_id: string;
  environment: Environment;
  key_id: string;
  fields: string;
  total_items: number;
  completed_items: number;
  failed_items: number;
  created_at: string;
  completed_at: string | null;
  next_enqueue_index: number;
  enqueue_failures: number;
  expired_at: string | null;
  webhook_url: string | null;
  webhook_secret: string | null;
  status_url: string;
  webhook_state: WebhookState | null;
  webhook_attempts: number;
  webhook_last_status: number | null;
  webhook_queued_at: string | null;
  webhook_attempted_at: string | null;
  webhook_enqueues: number;
};

const LOST_MESSAGE: ItemError = { code: "processing_failed", message: "the item could not be processed: its queue messages were lost" };
const TOO_LARGE: ItemError = { code: "processing_failed", message: "the item is too large to be queued" };

// Sends per alarm run: bounds one run's duration; the alarm re-arms to continue.
const MAX_SENDS_PER_ALARM = 200;

/**
 * One batch: its items, their results and the counters, in this object's SQLite.
 * It also drives the fan-out to the queue from its alarm, recording how far it
 * got, so an item accepted is an item enqueued even if a send fails halfway.
 */
export class ContactInfoBatch extends DurableObject<Env> {
  readonly #sql: SqlStorage;
  #hasSchema: boolean;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    // An unknown batch id must not leave tables behind, so the schema is created
    // by `create` and only upgraded here for batches that already exist.
    this.#hasSchema = hasSchema(this.#sql);
    if (this.#hasSchema) migrate(this.#sql);
  }

  async create(batch: NewBatch): Promise<CreatedBatch> {
    migrate(this.#sql);
    this.#hasSchema = true;
    // The same submit again (an Idempotency-Key retry after a crash): the batch it made, untouched.
    const existing = this.#ownedRow(batch);
    if (existing?.id === batch.id) return { ...this.#summary(existing), created: false };
    if (this.#row()) throw new Error(`batch ${batch.id} already exists`);
    const failed = batch.items.filter((item) => item.error !== null).length;
    const completedAt = failed === batch.items.length ? batch.createdAt : null;
    const leaders = leaderIndexes(batch.items);
    this.ctx.storage.transactionSync(() => {
      this.#sql.exec(
        `INSERT INTO batch (id, customer_id, environment, key_id, fields, total_items, failed_items, created_at, completed_at,
                            status_url, webhook_url, webhook_secret, webhook_state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        batch.id,
        batch.customerId,
        batch.environment,
        batch.keyId,
        JSON.stringify(batch.fields),
        batch.items.length,
        failed,
        batch.createdAt,
        completedAt,
        batch.statusUrl,
        batch.webhook?.url ?? null,
        batch.webhook?.secret ?? null,
        batch.webhook ? "pending" : null,
      );
      batch.items.forEach((item, index) => {
        this.#sql.exec(
          `INSERT INTO items (idx, external_id, input, status, error_code, error_message, finished_at, leader_idx)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          index,
          item.externalId,
          JSON.stringify(item.input),
          item.error ? "failed" : "pending",
          item.error?.code ?? null,
          item.error?.message ?? null,
          item.error ? batch.createdAt : null,
          leaders[index] ?? null,
        );
      });
    });
    // Now: to fan out, or (for a batch complete at birth) to send its webhook; else when retention ends.
    await this.ctx.storage.setAlarm(completedAt === null || batch.webhook ? Date.now() : this.#retentionEnd(completedAt));
    log("batch_created", { batchId: batch.id, environment: batch.environment, items: batch.items.length, invalidItems: failed });
    return { ...this.#summary(this.#row()!), created: true };
  }

  /** The batch and one page of its items, as far as `owner` may know. */
  status(owner: BatchOwner, page: StatusPage): StatusRead {
    const row = this.#ownedRow(owner);
    if (!row) return { kind: "none" };
    if (row.expired_at !== null) return { kind: "expired", expiredAt: row.expired_at };
    // The cursor is an item index, so a filtered page resumes exactly where the last one ended.
    const filter = "idx >= ? AND (? IS NULL OR status = ?)";
    const args = [page.fromIndex, page.status ?? null, page.status ?? null];
    // SQLite renders the page as JSON: no per-item objects cross the RPC boundary
    // or get parsed and re-serialized in the Worker. The shape is ItemView.
    const { items } = this.#sql
      .exec<{ items: string }>(
        `SELECT json_group_array(json(item)) AS items FROM (
           SELECT json_object(
             'index', idx, 'externalId', external_id, 'status', status, 'outcome', outcome, 'input', json(input),
             'emails', json(coalesce(emails, '[]')), 'phones', json(coalesce(phones, '[]')),
             'error', CASE WHEN error_code IS NULL THEN NULL ELSE json_object('code', error_code, 'message', coalesce(error_message, '')) END,
             'fromCache', json(CASE WHEN from_cache = 1 THEN 'true' ELSE 'false' END)
           ) AS item
           FROM items WHERE ${filter} ORDER BY idx LIMIT ?)`,
        ...args,
        page.limit,
      )
      .one();
    const next = this.#sql.exec<{ idx: number }>(`SELECT idx FROM items WHERE ${filter} ORDER BY idx LIMIT 1 OFFSET ?`, ...args, page.limit).toArray()[0];
    return {
      kind: "page",
      page: { ...this.#summary(row), webhook: webhookView(row), itemsJson: items, nextCursor: next ? encodeCursor(next.idx) : null },
    };
  }

  /**
   * Records finished items, and the same result for their followers (items of
   * this batch with the same person). Only items still pending change, so a
   * redelivered message or a repeated call never counts twice.
   */
  async record(outcomes: ItemOutcome[]): Promise<{ recorded: number }> {
    const row = this.#row();
    if (!row) {
      // Nothing to record into; retrying would not change that.
      log("record_for_unknown_batch", { items: outcomes.length });
      return { recorded: 0 };
    }
    const { completed, failed } = this.#settle(outcomes);
    if (this.#row()!.completed_at !== null && completed + failed > 0) await this.#finish();
    return { recorded: completed + failed };
  }

  /** Applies outcomes to the items still pending and their followers, and to the counters, in one transaction. */
  #settle(outcomes: ItemOutcome[]): { completed: number; failed: number } {
    const row = this.#row()!;
    const finishedAt = new Date().toISOString();
    let completed = 0;
    let failed = 0;
    this.ctx.storage.transactionSync(() => {
      for (const outcome of outcomes) {
        const values =
          outcome.status === "completed"
            ? [outcome.outcome, JSON.stringify(outcome.emails), JSON.stringify(outcome.phones), null, null, outcome.fromCache ? 1 : 0]
            : [null, null, null, outcome.error.code, outcome.error.message, 0];
        // Two statements, each on its own index: the item by its key, then its followers.
        const changed = ["idx = ?", "leader_idx = ?"].reduce(
          (sum, match) =>
            sum +
            this.#sql
              .exec(
                `UPDATE items SET status = ?, outcome = ?, emails = ?, phones = ?, error_code = ?, error_message = ?, from_cache = ?, finished_at = ?
                 WHERE ${match} AND status = 'pending' RETURNING idx`,
                outcome.status,
                ...values,
                finishedAt,
                outcome.index,
              )
              .toArray().length,
          0,
        );
        if (outcome.status === "completed") completed += changed;
        else failed += changed;
      }
      this.#addFinished(row, completed, failed, finishedAt);
    });
    return { completed, failed };
  }

  /** The batch.completed event, while the webhook still awaits delivery. */
  webhookEvent(): WebhookEvent | null {
    const row = this.#row();
    if (!row?.webhook_url || !row.webhook_secret || row.completed_at === null || row.webhook_state !== "queued") return null;
    const { id, status, totalItems, completedItems, failedItems, createdAt, completedAt } = this.#summary(row);
    const data = { id, environment: row.environment, status, totalItems, completedItems, failedItems, createdAt, completedAt, statusUrl: row.status_url };
    return {
      id: `evt_${row.id.replaceAll("-", "")}`,
      url: row.webhook_url,
      secret: row.webhook_secret,
      body: JSON.stringify({ type: "batch.completed", timestamp: row.completed_at, data }),
    };
  }

  recordWebhookAttempt(attempt: { status: number | null; state: "queued" | "delivered" | "failed" }): void {
    this.#sql.exec(
      "UPDATE batch SET webhook_attempts = webhook_attempts + 1, webhook_last_status = ?, webhook_state = ?, webhook_attempted_at = ? WHERE webhook_state = 'queued'",
      attempt.status,
      attempt.state,
      new Date().toISOString(),
    );
  }

  /** The webhook's delivery gave up without an attempt being recorded (its consumer kept crashing). */
  abandonWebhook(): void {
    this.#sql.exec("UPDATE batch SET webhook_state = 'failed' WHERE webhook_state = 'queued'");
  }

  /**
   * The one alarm drives, in turn: the fan-out, the re-drive of items whose
   * message was lost, the batch deadline, and once the batch is complete, the
   * webhook hand-off (and its re-drive) and the deletion of its items when
   * retention ends. Each run ends by arming the alarm for the earliest of them.
   */
  override async alarm(): Promise<void> {
    const row = this.#row();
    if (!row || row.expired_at !== null) return;
    const config = readConfig(this.env);
    if (row.completed_at !== null) {
      if (!(await this.#driveWebhook(row))) return;
      const done = this.#row()!;
      const end = this.#retentionEnd(done.completed_at!);
      if (Date.now() >= end) return this.#expire(done);
      const webhook = planWebhook(webhookFacts(done), Date.now(), { redriveAfterSeconds: config.redriveAfterSeconds, maxAttempts: config.webhookMaxAttempts });
      await this.ctx.storage.setAlarm(earliest(end, webhook.kind === "check" ? webhook.at : null)!);
      return;
    }
    try {
      if (row.next_enqueue_index < row.total_items) {
        if (!(await this.#fanOut(row)) || this.#row()!.completed_at !== null) return this.#continue();
      }
      // At most two turns: a re-drive leaves nothing due, unless it stopped at its bound.
      for (;;) {
        const plan = planOpenBatch({
          now: Date.now(),
          deadline: Date.parse(row.created_at) + config.batchDeadlineSeconds * 1000,
          oldestEnqueuedAt: this.#oldestPendingEnqueue(),
          redriveAfterSeconds: config.redriveAfterSeconds,
        });
        if (plan.kind === "sleep") return await this.ctx.storage.setAlarm(plan.until);
        if (plan.kind === "fail_remaining") return await this.#failRemaining({ code: "processing_timeout", message: "the item was not processed before the batch deadline" });
        if (!(await this.#redrive(row)) || this.#row()!.completed_at !== null) return await this.#continue();
      }
    } catch (error) {
      const failures = row.enqueue_failures + 1;
      this.#sql.exec("UPDATE batch SET enqueue_failures = ?", failures);
      const delay = retryDelaySeconds(failures, 1, 60);
      logError("batch_enqueue_failed", error, { batchId: row.id, failures, retryInSeconds: delay });
      await this.ctx.storage.setAlarm(Date.now() + delay * 1000);
    }
  }

  /** Runs the alarm again at once, unless settling items completed the batch (which set its own alarm). */
  async #continue(): Promise<void> {
    if (this.#row()!.completed_at === null) await this.ctx.storage.setAlarm(Date.now());
  }

  /**
   * Hands the webhook to its queue once, then resends it if it sits `queued` with
   * no activity past its longest backoff, a bounded number of times, or fails it.
   * False when the alarm was re-armed to try again shortly.
   */
  async #driveWebhook(row: BatchRow): Promise<boolean> {
    const config = readConfig(this.env);
    const plan =
      row.webhook_state === "pending"
        ? { kind: "resend" as const }
        : planWebhook(webhookFacts(row), Date.now(), { redriveAfterSeconds: config.redriveAfterSeconds, maxAttempts: config.webhookMaxAttempts });
    if (plan.kind === "fail") {
      this.#sql.exec("UPDATE batch SET webhook_state = 'failed' WHERE webhook_state = 'queued'");
      log("webhook_abandoned", { batchId: row.id, attempts: row.webhook_attempts, enqueues: row.webhook_enqueues });
    }
    if (plan.kind !== "resend") return true;
    try {
      await this.env.WEBHOOK_QUEUE.send({ batchId: row.id });
    } catch (error) {
      logError("webhook_enqueue_failed", error, { batchId: row.id });
      await this.ctx.storage.setAlarm(Date.now() + 5_000);
      return false;
    }
    this.#sql.exec(
      "UPDATE batch SET webhook_state = 'queued', webhook_queued_at = ?, webhook_enqueues = webhook_enqueues + 1 WHERE webhook_state IN ('pending', 'queued')",
      new Date().toISOString(),
    );
    if (row.webhook_state === "queued") log("webhook_redriven", { batchId: row.id, attempts: row.webhook_attempts, enqueues: row.webhook_enqueues + 1 });
    return true;
  }

  /** Enqueues pending items from where the last run stopped. True when every item is enqueued. */
  async #fanOut(row: BatchRow): Promise<boolean> {
    let next = row.next_enqueue_index;
    for (let sends = 0; sends < MAX_SENDS_PER_ALARM; ) {
      const items = this.#sql
        .exec<{ idx: number; input: string }>(
          "SELECT idx, input FROM items WHERE idx >= ? AND status = 'pending' AND leader_idx IS NULL ORDER BY idx LIMIT ?",
          next,
          MAX_MESSAGES_PER_SEND,
        )
        .toArray();
      if (items.length === 0) {
        this.#sql.exec("UPDATE batch SET next_enqueue_index = total_items");
        log("batch_enqueued", { batchId: row.id, items: row.total_items });
        return true;
      }
      // Progress is saved after every send: a failure resends at most one chunk,
      // and recording is idempotent, so a resent item is harmless.
      sends += await this.#enqueue(row, items, (sent) => {
        next = sent[sent.length - 1]!.index + 1;
        this.#sql.exec("UPDATE batch SET next_enqueue_index = ?", next);
      });
      if (this.#row()!.completed_at !== null) return true;
    }
    return false;
  }

  /**
   * Resends pending items last enqueued more than REDRIVE_AFTER_SECONDS ago (their
   * message was lost), oldest first; an item already enqueued MAX_ITEM_ENQUEUES
   * times fails instead. False when one run's sends (MAX_SENDS_PER_ALARM) ran out first.
   */
  async #redrive(row: BatchRow): Promise<boolean> {
    const cutoff = new Date(redriveCutoff(Date.now(), readConfig(this.env).redriveAfterSeconds)).toISOString();
    let resent = 0;
    let failed = 0;
    try {
      for (let sends = 0; sends < MAX_SENDS_PER_ALARM; ) {
        const due = this.#sql
          .exec<{ idx: number; input: string; enqueues: number }>(
            "SELECT idx, input, enqueues FROM items WHERE status = 'pending' AND leader_idx IS NULL AND enqueued_at <= ? ORDER BY enqueued_at, idx LIMIT ?",
            cutoff,
            MAX_MESSAGES_PER_SEND,
          )
          .toArray();
        if (due.length === 0) return true;
        const exhausted = due.filter((item) => itemRedrive(item.enqueues) === "fail");
        if (exhausted.length > 0) {
          failed += this.#settle(exhausted.map(({ idx }) => ({ index: idx, status: "failed", error: LOST_MESSAGE }))).failed;
          if (this.#row()!.completed_at !== null) {
            await this.#finish();
            return true;
          }
        }
        const again = due.filter((item) => itemRedrive(item.enqueues) === "resend");
        sends += await this.#enqueue(row, again, (sent) => (resent += sent.length));
      }
      return false;
    } finally {
      if (resent + failed > 0) log("items_redriven", { batchId: row.id, resent, failed });
    }
  }

  /**
   * Sends items to the queue in chunks the queue accepts, marking each item
   * enqueued (when, how often) as its chunk is accepted. Returns the sends made.
   */
  async #enqueue(row: BatchRow, items: { idx: number; input: string }[], sent: (chunk: ItemMessage[]) => void): Promise<number> {
    const fields = JSON.parse(row.fields) as ContactField[];
    const messages = items.map(
      (item): ItemMessage => ({ batchId: row.id, index: item.idx, environment: row.environment, fields, input: JSON.parse(item.input) }),
    );
    // Validation bounds every field, so this never happens; if it did, resending could never succeed.
    const tooLarge = messages.filter((message) => messageBytes(message) > MAX_MESSAGE_BYTES);
    if (tooLarge.length > 0) {
      this.#settle(tooLarge.map(({ index }) => ({ index, status: "failed", error: TOO_LARGE })));
      logError("item_too_large", new Error("item message over the queue's size limit"), { batchId: row.id, items: tooLarge.length });
      if (this.#row()!.completed_at !== null) await this.#finish();
    }
    let sends = 0;
    for (const chunk of chunkForSend(messages.filter((message) => !tooLarge.includes(message)))) {
      await sendSplitting(chunk, async (part) => {
        await this.env.ITEM_QUEUE.sendBatch(part.map((body) => ({ body, contentType: MESSAGE_CONTENT_TYPE })));
        sends++;
        this.ctx.storage.transactionSync(() => {
          this.#sql.exec(
            "UPDATE items SET enqueued_at = ?, enqueues = enqueues + 1 WHERE idx IN (SELECT value FROM json_each(?))",
            new Date().toISOString(),
            JSON.stringify(part.map((message) => message.index)),
          );
          sent(part);
        });
      });
    }
    return sends;
  }

  /** The last enqueue time of the pending item enqueued longest ago, if any. */
  #oldestPendingEnqueue(): number | null {
    const { oldest } = this.#sql
      .exec<{ oldest: string | null }>("SELECT min(enqueued_at) AS oldest FROM items WHERE status = 'pending' AND leader_idx IS NULL")
      .one();
    return millis(oldest);
  }

  async #failRemaining(error: ItemError): Promise<void> {
    const row = this.#row()!;
    const finishedAt = new Date().toISOString();
    this.ctx.storage.transactionSync(() => {
      const failed = this.#sql
        .exec(
          "UPDATE items SET status = 'failed', error_code = ?, error_message = ?, finished_at = ? WHERE status = 'pending' RETURNING idx",
          error.code,
          error.message,
          finishedAt,
        )
        .toArray().length;
      this.#addFinished(row, 0, failed, finishedAt);
    });
    await this.#finish();
  }

  #addFinished(row: BatchRow, completed: number, failed: number, finishedAt: string): void {
    if (completed + failed === 0) return;
    const done = row.completed_items + row.failed_items + completed + failed >= row.total_items;
    this.#sql.exec(
      `UPDATE batch SET completed_items = completed_items + ?, failed_items = failed_items + ?, completed_at = ?`,
      completed,
      failed,
      done ? finishedAt : null,
    );
  }

  #retentionEnd(completedAt: string): number {
    return Date.parse(completedAt) + readConfig(this.env).retentionSeconds * 1000;
  }

  #expire(row: BatchRow): void {
    const expiredAt = new Date().toISOString();
    this.ctx.storage.transactionSync(() => {
      this.#sql.exec("DELETE FROM items");
      this.#sql.exec("UPDATE batch SET expired_at = ?", expiredAt);
    });
    log("batch_expired", { batchId: row.id, environment: row.environment, items: row.total_items });
  }

  async #finish(): Promise<void> {
    const row = this.#row()!;
    await this.ctx.storage.setAlarm(row.webhook_state === "pending" ? Date.now() : this.#retentionEnd(row.completed_at!));
    log("batch_completed", {
      batchId: row.id,
      environment: row.environment,
      completedItems: row.completed_items,
      failedItems: row.failed_items,
      durationMs: Date.parse(row.completed_at!) - Date.parse(row.created_at),
    });
  }

  #row(): BatchRow | undefined {
    if (!this.#hasSchema) return undefined;
    return this.#sql.exec<BatchRow>("SELECT * FROM batch").toArray()[0];
  }

  #ownedRow(owner: BatchOwner): BatchRow | undefined {
    const row = this.#row();
    return row && row.customer_id === owner.customerId && row.environment === owner.environment ? row : undefined;
  }

  #summary(row: BatchRow): BatchSummary {
    return {
      id: row.id,
      status: batchStatus(row.total_items, row.completed_items, row.failed_items),
      totalItems: row.total_items,
      completedItems: row.completed_items,
      failedItems: row.failed_items,
      createdAt: row.created_at,
      completedAt: row.completed_at,
    };
  }
}

function webhookFacts(row: BatchRow) {
  return {
    state: row.webhook_state,
    lastActivityAt: latest(millis(row.webhook_queued_at), millis(row.webhook_attempted_at)),
    attempts: row.webhook_attempts,
    enqueues: row.webhook_enqueues,
  };
}

function webhookView(row: BatchRow): WebhookView | null {
  if (!row.webhook_url || !row.webhook_state) return null;
  return { url: row.webhook_url, state: row.webhook_state, attempts: row.webhook_attempts, lastStatus: row.webhook_last_status };
}
