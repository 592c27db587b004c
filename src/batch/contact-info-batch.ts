import { DurableObject } from "cloudflare:workers";
import { emptyUsage, tallyFailed } from "../account/usage";
import { type Config, readConfig } from "../config";
import type { ItemError } from "../contact-info/contact";
import type { StatusPage } from "../contact-info/status-query";
import { log, logError } from "../log";
import type { CompletedBatch } from "../webhooks/event";
import {
  type BatchRow,
  insertBatchRow,
  newBatchSummary,
  readBatchRow,
  readStatusRow,
  type StatusRow,
  summary,
  webhookView,
} from "./batch-row";
import { cacheKeysToErase, purgeStep } from "./cache-purge";
import { CacheWrites } from "./cache-writes";
import type { BatchOwner, CreatedBatch, ItemDeferral, ItemOutcome, NewBatch, StagedItems, StatusRead } from "./contract";
import { eraseBatch, pendingAmong } from "./erase";
import { erasePersonItems } from "./erase-person";
import { enqueueing, type FanOutTarget, fanOut, fanOutNew, redrive } from "./fan-out";
import { deferItems, expireItems, insertItems, itemsPage, settleItems, timedOutItems } from "./item-store";
import { fanOutDue, fanOutRoom, nextStep, retentionEnd, type Step } from "./next-step";
import { appendOutbox, reportStep, reportToAccount } from "./outbox";
import { PageCache } from "./page-cache";
import { kvResultCache, type ResultCache } from "./result-cache";
import { createSchema, hasSchema, migrate } from "./schema";
import { noteDatabaseSize } from "./scrub";
import { completedBatchEvent, failQueuedWebhook, failWebhook, saveWebhookAttempt, sendWebhook } from "./webhook-state";

const DEADLINE_PASSED: ItemError = { code: "processing_timeout", message: "the item was not processed before the batch deadline" };

// How soon finished items' usage is reported to the account.
const REPORT_DELAY_MS = 1_000;

// When a new batch's alarm fires if the object stopped before taking its first steps itself.
const FIRST_STEPS_FALLBACK_MS = 5_000;

// How long staged chunks wait for their `create` before the alarm deletes them.
const STAGED_ITEMS_TTL_MS = 10 * 60_000;

// Steps one alarm run takes at most; then it re-arms to go on, so a run stays short.
const MAX_STEPS_PER_ALARM = 8;

/**
 * One batch: its items, their results and the counters, in this object's SQLite.
 * `create` sends the first window of items to the queue right after storing
 * them, recording how far it got; the alarm sends the rest as items are
 * recorded, and goes on from there if a send fails halfway, so an item accepted
 * is an item enqueued. Then the alarm drives the re-drive of lost messages, the
 * deadline, the webhook, the purge of an erased batch's cached results and retention. What it does next is
 * decided by `nextStep`; the steps' SQL lives beside it.
 */
export class ContactInfoBatch extends DurableObject<Env> {
  readonly #sql: SqlStorage;
  #hasSchema: boolean;
  readonly #pages = new PageCache();
  /** A new batch's first sends, still under way: the alarm waits for them before it plans. */
  #sending: Promise<void> | null = null;
  readonly #cache: ResultCache;
  readonly #cacheWrites: CacheWrites;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    const { resultCacheTtlSeconds, resultCacheNotFoundTtlSeconds } = readConfig(env).enrichment;
    this.#cache = kvResultCache(env.RESULT_CACHE, resultCacheTtlSeconds, resultCacheNotFoundTtlSeconds);
    this.#cacheWrites = new CacheWrites(this.#cache);
    // An unknown batch id must not leave tables behind, so the schema is created
    // by `create` and only upgraded here for batches that already exist.
    this.#hasSchema = hasSchema(this.#sql);
    if (this.#hasSchema) migrate(this.#sql);
  }

  /**
   * Stores a chunk of a batch too large for one call, ahead of `create`. Nothing
   * shows it (reads need the batch row, which `create` writes); if `create` never
   * comes, the alarm deletes it. A chunk sent again (a retried submit) changes nothing.
   */
  stage(chunk: StagedItems): void {
    if (this.#row()) return;
    this.ctx.storage.transactionSync(() => {
      if (!this.#hasSchema) createSchema(this.#sql);
      insertItems(this.#sql, { ...chunk, sentAtCreation: 0 });
    });
    this.#hasSchema = true;
    noteDatabaseSize(this.ctx.storage);
    void this.ctx.storage.setAlarm(Date.now() + STAGED_ITEMS_TTL_MS);
  }

  async create(batch: NewBatch): Promise<CreatedBatch> {
    if (this.#hasSchema) {
      // The same submit again (an Idempotency-Key retry after a crash): the batch it made, untouched.
      const existing = this.#row();
      if (existing?.id === batch.id && ownedBy(existing, batch)) return { ...summary(existing), created: false };
      if (existing) throw new Error(`batch ${batch.id} already exists`);
    }
    const config = readConfig(this.env);
    const total = batch.stagedItems + batch.items.length;
    // A batch that came in chunks is sent by the alarm's fan-out, from storage; one that came whole, from here.
    const sentAtCreation = batch.stagedItems > 0 ? 0 : config.fanOutWindowItems;
    let failed = batch.items.filter((item) => item.error !== null).length;
    let completedAt: string | null = null;
    this.ctx.storage.transactionSync(() => {
      // A new batch gets the latest schema in one script, not by replaying every migration.
      if (!this.#hasSchema) createSchema(this.#sql);
      if (batch.stagedItems > 0) failed += stagedFailures(this.#sql, batch.stagedItems);
      completedAt = failed === total ? batch.createdAt : null;
      insertBatchRow(this.#sql, batch, total, failed, completedAt);
      insertItems(this.#sql, { ...batch, firstIndex: batch.stagedItems, sentAtCreation });
      // Registers the batch with its account (and counts the items failed at submission): the first step below.
      const usage = emptyUsage();
      tallyFailed(usage, failed);
      appendOutbox(this.#sql, batch.createdAt, usage, { register: true });
    });
    this.#hasSchema = true;
    noteDatabaseSize(this.ctx.storage);
    if (completedAt !== null || batch.stagedItems > 0) {
      // Nothing to send from here: the alarm registers the batch with its account and sends the items or the webhook, now.
      void this.ctx.storage.setAlarm(Date.now());
    } else {
      // The first window of items is sent from here, not read back by the alarm, and then the alarm's
      // first steps (registering with the account) are taken here too, arming it for the next; all after
      // this answer (the next task), so the caller has it as soon as the items are stored. The alarm is
      // the fallback: armed with the rows (the output gate holds this answer until both are stored),
      // it takes over if the object stops first, and at once if a step here fails.
      void this.ctx.storage.setAlarm(Date.now() + FIRST_STEPS_FALLBACK_MS);
      this.#sending = scheduler
        .wait(0)
        .then(() => fanOutNew(this.#fanOutTarget(config), batch, sentAtCreation))
        .then(
          () => this.#advance(),
          (error) => {
            logError("batch_first_send_failed", error, { batchId: batch.id });
            return this.#advance();
          },
        )
        .catch(async (error) => {
          logError("batch_first_steps_failed", error, { batchId: batch.id });
          await this.ctx.storage.setAlarm(Date.now());
        })
        .finally(() => {
          this.#sending = null;
        });
    }
    log("batch_created", {
      batchId: batch.id,
      environment: batch.environment,
      items: total,
      invalidItems: failed,
      stagedItems: batch.stagedItems,
    });
    return { ...newBatchSummary(batch, total, failed, completedAt), created: true };
  }

  /** Whether the batch was created (staged chunks alone do not count): reads nothing else. */
  exists(): boolean {
    return this.#hasSchema && readStatusRow(this.#sql) !== undefined;
  }

  /** The batch and one page of its items, as far as `owner` may know. */
  status(owner: BatchOwner, page: StatusPage): StatusRead {
    const row = this.#hasSchema ? readStatusRow(this.#sql) : undefined;
    if (!row || !ownedBy(row, owner)) return { kind: "none" };
    if (row.deleted_at !== null) return { kind: "deleted", deletedAt: row.deleted_at };
    if (row.expired_at !== null) return { kind: "expired", expiredAt: row.expired_at };
    const items = this.#pages.page(row, page, () => itemsPage(this.#sql, page));
    return { kind: "page", page: { ...summary(row), webhook: webhookView(row), ...items } };
  }

  /**
   * Records finished items, and the same result for their followers (items of
   * this batch with the same person). Only items still pending change, so a
   * redelivered message or a repeated call never counts twice.
   */
  async record(outcomes: ItemOutcome[], deferrals: ItemDeferral[] = []): Promise<{ recorded: number }> {
    const row = this.#row();
    if (!row) {
      // Nothing to record into; retrying would not change that.
      log("record_for_unknown_batch", { items: outcomes.length });
      return { recorded: 0 };
    }
    if (row.deleted_at !== null) return { recorded: 0 };
    deferItems(this.#sql, deferrals);
    if (outcomes.length === 0) return { recorded: 0 };
    const { completed, failed } = await this.#settle(row, outcomes, readConfig(this.env));
    return { recorded: completed + failed };
  }

  /** Of `indexes`, those still pending: the consumer drops the others' messages (finished, or the batch deleted) unprocessed. */
  stillPending(indexes: number[]): number[] {
    // The row without the alarm's facts: only whether the batch exists and was deleted matters here.
    const row = this.#hasSchema ? readStatusRow(this.#sql) : undefined;
    return !row || row.deleted_at !== null ? [] : pendingAmong(this.#sql, indexes);
  }

  /**
   * Cancels and erases the batch (see eraseBatch), and tells its account before
   * answering, so the list no longer shows it; if that fails the call throws and
   * may be repeated, and the alarm reports it anyway. Null when not the owner's.
   */
  async erase(owner: BatchOwner): Promise<{ deletedAt: string } | null> {
    const row = this.#ownedRow(owner);
    if (!row) return null;
    const deletedAt = eraseBatch(this.ctx.storage, row.deleted_at === null ? await cacheKeysToErase(this.#sql, row) : []);
    this.#pages.clear();
    log("batch_deleted", { batchId: this.#requireRow().id, environment: owner.environment });
    await this.ctx.storage.setAlarm(Date.now());
    await reportToAccount(this.env, this.#sql, this.#requireRow());
    return { deletedAt };
  }

  /** Erases one person's items (erase-person.ts): how many; 0 when the batch is not the owner's or its items are gone. */
  async erasePerson(owner: BatchOwner, keys: string[], erasedAt: string): Promise<{ items: number }> {
    const row = this.#ownedRow(owner);
    if (!row) return { items: 0 };
    if (row.deleted_at !== null || row.expired_at !== null) {
      // Emptied before its account learnt so (an older deploy's retention): told now, no erasure asks again.
      await reportStep(this.env, this.ctx.storage, row);
      return { items: 0 };
    }
    const items = await erasePersonItems(
      {
        storage: this.ctx.storage,
        row,
        settle: (outcomes) => this.#settle(this.#requireRow(), outcomes, readConfig(this.env)),
        purge: async (keys) => {
          await this.#cacheWrites.settled();
          await Promise.all(keys.map((key) => this.#cache.delete(key)));
        },
      },
      keys,
      erasedAt,
    );
    this.#pages.clear();
    return { items };
  }

  /** The completed batch, for its batch.completed event, while the webhook awaits delivery. */
  pendingWebhook(): CompletedBatch | null {
    const row = this.#row();
    return row ? completedBatchEvent(row) : null;
  }

  recordWebhookAttempt(attempt: { status: number | null; state: "queued" | "delivered" | "failed" }): void {
    saveWebhookAttempt(this.#sql, attempt);
  }

  /** The webhook's delivery gave up without an attempt being recorded (its consumer kept crashing). */
  abandonWebhook(): void {
    failQueuedWebhook(this.#sql);
  }

  override async alarm(): Promise<void> {
    await this.#sending;
    await this.#advance();
  }

  /** Takes the steps `nextStep` plans, in turn, until one is to wait: then the alarm is armed for it. */
  async #advance(): Promise<void> {
    const config = readConfig(this.env);
    for (let turn = 0; turn < MAX_STEPS_PER_ALARM; turn++) {
      const row = this.#row();
      if (!row) return this.#dropStagedItems();
      const step = nextStep(row, Date.now(), config);
      if (step.kind === "none") return this.ctx.storage.deleteAlarm();
      if (step.kind === "wait_until") return this.ctx.storage.setAlarm(step.at);
      const done = await this.#take(step, row, config);
      noteDatabaseSize(this.ctx.storage);
      if (!done) return;
    }
    await this.ctx.storage.setAlarm(Date.now());
  }

  /** Takes one step; false when it armed the alarm to go on later instead. */
  async #take(step: Exclude<Step, { kind: "none" | "wait_until" }>, row: BatchRow, config: Config): Promise<boolean> {
    switch (step.kind) {
      case "report":
        return reportStep(this.env, this.ctx.storage, row);
      case "purge_cache":
        return purgeStep(this.ctx.storage, this.#cache, this.#cacheWrites, row.id);
      case "fan_out":
        return enqueueing(this.ctx.storage, row, () => fanOut(this.#fanOutTarget(config), row, fanOutRoom(row.in_flight, config)));
      case "redrive":
        return enqueueing(this.ctx.storage, row, () => redrive(this.#fanOutTarget(config), row, config.redriveAfterSeconds));
      case "time_out_items":
        return enqueueing(this.ctx.storage, row, () => this.#timeOutItems(row, config));
      case "send_webhook":
        return sendWebhook(this.env.WEBHOOK_QUEUE, this.ctx.storage, row);
      case "fail_webhook":
        return failWebhook(this.#sql, row);
      case "expire":
        return this.#expire(row);
    }
  }

  #fanOutTarget(config: Config): FanOutTarget {
    return {
      storage: this.ctx.storage,
      queue: this.env.ITEM_QUEUE,
      settle: (outcomes) => this.#settle(this.#requireRow(), outcomes, config),
      isComplete: () => this.#requireRow().completed_at !== null,
    };
  }

  /** Through #settle like any end, so what an item found before a wait still completes it. */
  async #timeOutItems(row: BatchRow, config: Config): Promise<boolean> {
    await this.#settle(row, timedOutItems(this.#sql, DEADLINE_PASSED), config);
    return true;
  }

  #expire(row: BatchRow): boolean {
    expireItems(this.ctx.storage);
    this.#pages.clear();
    log("batch_expired", { batchId: row.id, environment: row.environment, items: row.total_items });
    return true;
  }

  /** Settles outcomes into the batch whose row (as read just now) is `row`; when they complete the batch, finishes it. */
  async #settle(row: BatchRow, outcomes: ItemOutcome[], config: Config): Promise<{ completed: number; failed: number }> {
    const counts = settleItems(this.ctx.storage, row, outcomes, config.prices);
    if (counts.completed + counts.failed === 0) return counts;
    noteDatabaseSize(this.ctx.storage);
    // Started at once, so a delete that comes while it runs has its purge wait for it. The outcomes
    // as recorded: a result held back by the budget is not cached (a resubmit would get it for free).
    const caching = this.#cacheWrites.write(this.#sql, row, counts.outcomes, counts.recorded);
    const completed = counts.completedAt !== null;
    if (completed) await this.#finish(config);
    // Their usage went to the outbox: report it soon, one report for the records of a short while;
    // at once when the batch completed, so the list shows it completed as its status does, or when
    // the fan-out's window has room again, so the queue does not run dry.
    const now = Date.now();
    const reportAt = completed || fanOutDue(this.#requireRow(), config) ? now : now + REPORT_DELAY_MS;
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > reportAt) await this.ctx.storage.setAlarm(reportAt);
    await caching;
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

  /** Staged chunks whose `create` never came (the submit died midway): nothing refers to them. */
  async #dropStagedItems(): Promise<void> {
    if (!this.#hasSchema) return;
    await this.ctx.storage.deleteAll();
    this.#hasSchema = false;
    log("staged_items_dropped", {});
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
    return row && ownedBy(row, owner) ? row : undefined;
  }
}

/** Failed items among those staged, which must all be there: a missing chunk fails the submit rather than make half a batch. */
function stagedFailures(sql: SqlStorage, stagedItems: number): number {
  const { stored, failed } = sql
    .exec<{ stored: number; failed: number }>(
      "SELECT count(*) AS stored, coalesce(sum(status = 'failed'), 0) AS failed FROM items WHERE idx < ?",
      stagedItems,
    )
    .one();
  if (stored !== stagedItems) throw new Error(`${stagedItems - stored} staged item(s) missing`);
  return failed;
}

const ownedBy = (row: Pick<StatusRow, "customer_id" | "environment">, owner: BatchOwner): boolean =>
  row.customer_id === owner.customerId && row.environment === owner.environment;
