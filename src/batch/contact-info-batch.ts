import { DurableObject } from "cloudflare:workers";
import { type Config, readConfig } from "../config";
import type { ItemError } from "../contact-info/contact";
import type { StatusPage } from "../contact-info/status-query";
import { log, logError } from "../log";
import { retryDelaySeconds } from "../queue/backoff";
import type { CompletedBatch } from "../webhooks/event";
import { type BatchRow, insertBatchRow, readBatchRow, summary, webhookView } from "./batch-row";
import type { BatchOwner, CreatedBatch, ItemOutcome, NewBatch, StatusRead } from "./contract";
import { type FanOutTarget, fanOut, redrive } from "./fan-out";
import { expireItems, failPendingItems, insertItems, itemsPage, settleItems } from "./item-store";
import { nextStep, retentionEnd, type Step } from "./next-step";
import { hasSchema, migrate } from "./schema";
import { failQueuedWebhook, markWebhookQueued, saveWebhookAttempt } from "./webhook-state";

const DEADLINE_PASSED: ItemError = { code: "processing_timeout", message: "the item was not processed before the batch deadline" };

// Steps one alarm run takes at most; then it re-arms to go on, so a run stays short.
const MAX_STEPS_PER_ALARM = 8;

/**
 * One batch: its items, their results and the counters, in this object's SQLite.
 * Its alarm drives the fan-out to the queue, recording how far it got, so an
 * item accepted is an item enqueued even if a send fails halfway; then the
 * re-drive of lost messages, the deadline, the webhook and retention. What the
 * alarm does next is decided by `nextStep`; the steps' SQL lives beside it.
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
    if (existing?.id === batch.id) return { ...summary(existing), created: false };
    if (this.#row()) throw new Error(`batch ${batch.id} already exists`);
    const failed = batch.items.filter((item) => item.error !== null).length;
    const completedAt = failed === batch.items.length ? batch.createdAt : null;
    this.ctx.storage.transactionSync(() => {
      insertBatchRow(this.#sql, batch, failed, completedAt);
      insertItems(this.#sql, batch.items, batch.createdAt);
    });
    // Now: to fan out, or (for a batch complete at birth) to send its webhook; else when retention ends.
    const alarmAt = completedAt === null || batch.webhook ? Date.now() : retentionEnd(completedAt, readConfig(this.env));
    await this.ctx.storage.setAlarm(alarmAt);
    log("batch_created", { batchId: batch.id, environment: batch.environment, items: batch.items.length, invalidItems: failed });
    return { ...summary(this.#requireRow()), created: true };
  }

  /** The batch and one page of its items, as far as `owner` may know. */
  status(owner: BatchOwner, page: StatusPage): StatusRead {
    const row = this.#ownedRow(owner);
    if (!row) return { kind: "none" };
    if (row.expired_at !== null) return { kind: "expired", expiredAt: row.expired_at };
    return { kind: "page", page: { ...summary(row), webhook: webhookView(row), ...itemsPage(this.#sql, page) } };
  }

  /**
   * Records finished items, and the same result for their followers (items of
   * this batch with the same person). Only items still pending change, so a
   * redelivered message or a repeated call never counts twice.
   */
  async record(outcomes: ItemOutcome[]): Promise<{ recorded: number }> {
    if (!this.#row()) {
      // Nothing to record into; retrying would not change that.
      log("record_for_unknown_batch", { items: outcomes.length });
      return { recorded: 0 };
    }
    const { completed, failed } = await this.#settle(outcomes, readConfig(this.env));
    return { recorded: completed + failed };
  }

  /** The completed batch, for its batch.completed event, while the webhook awaits delivery. */
  pendingWebhook(): CompletedBatch | null {
    const row = this.#row();
    if (!row?.webhook_url || !row.webhook_secret || row.completed_at === null || row.webhook_state !== "queued") return null;
    return {
      summary: { ...summary(row), completedAt: row.completed_at },
      environment: row.environment,
      statusUrl: row.status_url,
      webhookUrl: row.webhook_url,
      secret: row.webhook_secret,
    };
  }

  recordWebhookAttempt(attempt: { status: number | null; state: "queued" | "delivered" | "failed" }): void {
    saveWebhookAttempt(this.#sql, attempt);
  }

  /** The webhook's delivery gave up without an attempt being recorded (its consumer kept crashing). */
  abandonWebhook(): void {
    failQueuedWebhook(this.#sql);
  }

  /** Takes the steps `nextStep` plans, in turn, until one is to wait: then the alarm is armed for it. */
  override async alarm(): Promise<void> {
    const config = readConfig(this.env);
    for (let turn = 0; turn < MAX_STEPS_PER_ALARM; turn++) {
      const row = this.#row();
      if (!row) return;
      const step = nextStep(row, Date.now(), config);
      if (step.kind === "none") return;
      if (step.kind === "wait_until") return this.ctx.storage.setAlarm(step.at);
      if (!(await this.#take(step, row, config))) return;
    }
    await this.ctx.storage.setAlarm(Date.now());
  }

  /** Takes one step; false when it armed the alarm to go on later instead. */
  async #take(step: Exclude<Step, { kind: "none" | "wait_until" }>, row: BatchRow, config: Config): Promise<boolean> {
    switch (step.kind) {
      case "fan_out":
        return this.#enqueueing(row, () => fanOut(this.#fanOutTarget(config), row));
      case "redrive":
        return this.#enqueueing(row, () => redrive(this.#fanOutTarget(config), row, config.redriveAfterSeconds));
      case "time_out_items":
        return this.#enqueueing(row, () => this.#timeOutItems(row, config));
      case "send_webhook":
        return this.#sendWebhook(row);
      case "fail_webhook":
        return this.#failWebhook(row);
      case "expire":
        return this.#expire(row);
    }
  }

  /**
   * Runs work on the item queue. When its sends ran out it goes on at once in
   * the next run; when the queue failed, after a backoff that grows with the
   * failures so far. False in both cases.
   */
  async #enqueueing(row: BatchRow, work: () => Promise<boolean>): Promise<boolean> {
    try {
      if (await work()) return true;
      await this.ctx.storage.setAlarm(Date.now());
    } catch (error) {
      const failures = row.enqueue_failures + 1;
      this.#sql.exec("UPDATE batch SET enqueue_failures = ?", failures);
      const delay = retryDelaySeconds(failures, 1, 60);
      logError("batch_enqueue_failed", error, { batchId: row.id, failures, retryInSeconds: delay });
      await this.ctx.storage.setAlarm(Date.now() + delay * 1000);
    }
    return false;
  }

  #fanOutTarget(config: Config): FanOutTarget {
    return {
      storage: this.ctx.storage,
      queue: this.env.ITEM_QUEUE,
      settle: (outcomes) => this.#settle(outcomes, config),
      isComplete: () => this.#requireRow().completed_at !== null,
    };
  }

  async #timeOutItems(row: BatchRow, config: Config): Promise<boolean> {
    failPendingItems(this.ctx.storage, row, DEADLINE_PASSED);
    await this.#finish(config);
    return true;
  }

  /** Hands the webhook to its queue: the first time, or again when its message was lost. */
  async #sendWebhook(row: BatchRow): Promise<boolean> {
    try {
      await this.env.WEBHOOK_QUEUE.send({ batchId: row.id });
    } catch (error) {
      logError("webhook_enqueue_failed", error, { batchId: row.id });
      await this.ctx.storage.setAlarm(Date.now() + 5_000);
      return false;
    }
    markWebhookQueued(this.#sql);
    if (row.webhook_state === "queued")
      log("webhook_redriven", { batchId: row.id, attempts: row.webhook_attempts, enqueues: row.webhook_enqueues + 1 });
    return true;
  }

  #failWebhook(row: BatchRow): boolean {
    failQueuedWebhook(this.#sql);
    log("webhook_abandoned", { batchId: row.id, attempts: row.webhook_attempts, enqueues: row.webhook_enqueues });
    return true;
  }

  #expire(row: BatchRow): boolean {
    expireItems(this.ctx.storage);
    log("batch_expired", { batchId: row.id, environment: row.environment, items: row.total_items });
    return true;
  }

  /** Settles outcomes; when they complete the batch, finishes it. */
  async #settle(outcomes: ItemOutcome[], config: Config): Promise<{ completed: number; failed: number }> {
    const counts = settleItems(this.ctx.storage, this.#requireRow(), outcomes);
    if (counts.completed + counts.failed > 0 && this.#requireRow().completed_at !== null) await this.#finish(config);
    return counts;
  }

  /** The batch just completed: its alarm now sends the webhook, or waits for retention to end. */
  async #finish(config: Config): Promise<void> {
    const row = this.#requireRow();
    if (row.completed_at === null) return;
    await this.ctx.storage.setAlarm(row.webhook_state === "pending" ? Date.now() : retentionEnd(row.completed_at, config));
    log("batch_completed", {
      batchId: row.id,
      environment: row.environment,
      completedItems: row.completed_items,
      failedItems: row.failed_items,
      durationMs: Date.parse(row.completed_at) - Date.parse(row.created_at),
    });
  }

  #row(): BatchRow | undefined {
    return this.#hasSchema ? readBatchRow(this.#sql) : undefined;
  }

  /** The row, for code that runs only once the batch exists. */
  #requireRow(): BatchRow {
    const row = this.#row();
    if (!row) throw new Error("the batch has no row: it was never created");
    return row;
  }

  #ownedRow(owner: BatchOwner): BatchRow | undefined {
    const row = this.#row();
    return row && row.customer_id === owner.customerId && row.environment === owner.environment ? row : undefined;
  }
}
