import { DurableObject } from "cloudflare:workers";
import { readConfig } from "../base/config";
import { log } from "../base/log";
import type { BatchOwner } from "../base/tenant";
import type {
  CreatedBatch,
  ItemDeferral,
  ItemOutcome,
  NewBatch,
  RecordAnswer,
  StagedItems,
  StatusRead,
} from "../contact-info/batch-contract";
import type { EventsRequest } from "../contact-info/events-query";
import type { StatusPage } from "../contact-info/status-query";
import type { CompletedBatch, WebhookAttempt, WebhookEvent } from "../contact-info/webhook-event";
import type { FeedbackRead, FeedbackRequest } from "../credits/feedback";
import { recordFeedback, reportSoon } from "../credits/refund";
import { eraseAndReport } from "../privacy/storage/erase-batch";
import { erasePersonItems, itemsOfPerson } from "../privacy/storage/erase-person";
import { noteSizeForScrub } from "../privacy/storage/high-water";
import { advance } from "./alarm-steps";
import { type BatchParts, batchParts } from "./batch-parts";
import {
  type BatchRow,
  newBatchSummary,
  ownedBy,
  readBatchRow,
  readStatusRow,
  summary,
  webhookView,
} from "./batch-row";
import { STAGED_ITEMS_TTL_MS, storeNewBatch, storeStagedChunk, takeFirstSteps } from "./creation";
import type { EventsRead } from "./events/event-streams";
import { failItemDelivery, itemDeliveryEvent, saveItemDeliveryAttempt } from "./events/item-deliveries";
import { completedBatchEvent, failQueuedWebhook, saveWebhookAttempt } from "./events/webhook-state";
import { deferItems, itemsPage } from "./item-store";
import { pendingItems } from "./pending-items";
import { recordOutcomes } from "./record/record-outcomes";
import { hasSchema, migrate } from "./schema";

/**
 * One batch: its items, their results and the counters, in this object's SQLite.
 * `create` sends the first window of items to the queue right after storing
 * them, recording how far it got; the alarm sends the rest as items are
 * recorded, and goes on from there if a send fails halfway, so an item accepted
 * is an item enqueued. Then the alarm drives the re-drive of lost messages, the
 * deadline, the webhook, the purge of an erased batch's cached results and retention. What it does next is
 * decided by `nextStep`; the steps' SQL lives beside it. The create path (creation.ts), the alarm's steps
 * (alarm-steps.ts), the fan-out (fan-out.ts) and the paths in the sub-rooms, record/ and events/ (and privacy/storage/ and credits/refund.ts), are functions
 * of the object's parts; this class holds its RPC methods.
 */
export class ContactInfoBatch extends DurableObject<Env> {
  readonly #parts: BatchParts;
  readonly #sql: SqlStorage;
  #hasSchema: boolean;
  /** A new batch's first sends, still under way: the alarm waits for them before it plans. */
  #sending: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#parts = batchParts(ctx, env);
    // An unknown batch id must not leave tables behind, so the schema is created
    // by `create` and only upgraded here for batches that already exist.
    this.#hasSchema = hasSchema(this.#sql);
    // applyMigrations runs in one transaction: a migration that rebuilds a table is all or nothing.
    if (this.#hasSchema) migrate(ctx.storage);
  }

  /**
   * Stores a chunk of a batch too large for one call, ahead of `create`. Nothing
   * shows it (reads need the batch row, which `create` writes); if `create` never
   * comes, the alarm deletes it. A chunk sent again (a retried submit) changes nothing.
   */
  stage(chunk: StagedItems): void {
    if (this.#row()) return;
    storeStagedChunk(this.ctx.storage, this.#hasSchema, chunk);
    this.#hasSchema = true;
    noteSizeForScrub(this.ctx.storage);
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
    // A batch that came in chunks is sent by the alarm's fan-out, from storage; one that came whole, from here.
    const sentAtCreation = batch.stagedItems > 0 ? 0 : config.fanOutWindowItems;
    // Registers the batch with its account too (and counts the items failed at submission): the first step below.
    const { total, failed, completedAt } = storeNewBatch(this.ctx.storage, this.#hasSchema, batch, sentAtCreation);
    this.#hasSchema = true;
    noteSizeForScrub(this.ctx.storage);
    if (completedAt !== null || batch.stagedItems > 0) {
      // Nothing to send from here: the alarm registers the batch with its account and sends the items or the webhook, now.
      void this.ctx.storage.setAlarm(Date.now());
    } else {
      this.#sending = takeFirstSteps(this.#parts, batch, sentAtCreation, config, () => this.#advance()).finally(() => {
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
    const items = this.#parts.pages.page(row, page, () => itemsPage(this.#sql, page));
    return { kind: "page", page: { ...summary(row), webhook: webhookView(row), ...items } };
  }

  /** The batch's events as a stream of server-sent events (events/event-streams.ts), as far as `owner` may know. */
  events(owner: BatchOwner, request: EventsRequest): EventsRead {
    const row = this.#hasSchema ? readStatusRow(this.#sql) : undefined;
    return row && ownedBy(row, owner) ? this.#parts.events.open(row, request) : { kind: "none" };
  }

  /**
   * Records finished items, and the same result for their followers (items of
   * this batch with the same person). Only items still pending change, so a
   * redelivered message or a repeated call never counts twice. Answers how many
   * items it finished and which of the outcomes' items were no longer pending
   * (all of them, and the deferrals', when the batch is deleted or unknown): the
   * consumer acks and logs those as dropped, so a first delivery needs no
   * `stillPending` call before it (queue/consumer.ts).
   */
  async record(outcomes: ItemOutcome[], deferrals: ItemDeferral[] = []): Promise<RecordAnswer> {
    const row = this.#row();
    const everyIndex = () => [...new Set([...outcomes, ...deferrals].map(({ index }) => index))];
    if (!row) {
      // Nothing to record into; retrying would not change that.
      log("record_for_unknown_batch", { items: outcomes.length });
      return { recorded: 0, notPending: everyIndex() };
    }
    if (row.deleted_at !== null) return { recorded: 0, notPending: everyIndex() };
    deferItems(this.#sql, deferrals);
    if (outcomes.length === 0) return { recorded: 0, notPending: [] };
    const { completed, failed, notPending } = await recordOutcomes(this.#parts, row, outcomes, readConfig(this.env));
    return { recorded: completed + failed, notPending };
  }

  /** A report that a delivered contact is wrong (credits/refund.ts): its refund, once; the account hears of it soon. */
  async feedback(owner: BatchOwner, request: FeedbackRequest): Promise<FeedbackRead> {
    const row = this.#hasSchema ? readStatusRow(this.#sql) : undefined;
    const read = recordFeedback(this.ctx.storage, row, owner, request, readConfig(this.env).prices);
    if (read.kind === "recorded") await reportSoon(this.ctx.storage);
    return read;
  }

  /** Of `indexes`, those still pending (pendingItems): the consumer drops the others' messages (finished, or the batch deleted) unprocessed. */
  stillPending(indexes: number[]) {
    // The row without the alarm's facts: only whether the batch exists and was deleted matters here.
    const row = this.#hasSchema ? readStatusRow(this.#sql) : undefined;
    return !row || row.deleted_at !== null ? [] : pendingItems(this.#sql, row.id, indexes);
  }

  /** Cancels and erases the batch, and tells its account before answering (privacy/storage/erase-batch.ts). Null when not the owner's. */
  async erase(owner: BatchOwner): Promise<{ deletedAt: string } | null> {
    const row = this.#ownedRow(owner);
    return row ? { deletedAt: await eraseAndReport(this.#parts, row, owner.environment) } : null;
  }
  /** Erases one person's items (privacy/storage/erase-person.ts): how many; 0 when the batch is not the owner's or its items are gone. */
  async erasePerson(owner: BatchOwner, keys: string[], erasedAt: string): Promise<{ items: number }> {
    const row = this.#ownedRow(owner);
    return { items: row ? await erasePersonItems(this.#parts, row, keys, erasedAt, readConfig(this.env)) : 0 };
  }
  /** The items erasePerson would erase, by index: what else was made from them (CRM syncs) is erased first. */
  personItems(owner: BatchOwner, keys: string[]): number[] {
    return this.#ownedRow(owner) ? itemsOfPerson(this.#sql, keys).indexes : [];
  }

  /** The completed batch, for its batch.completed event, while the webhook awaits delivery. */
  pendingWebhook(): CompletedBatch | null {
    const row = this.#row();
    return row ? completedBatchEvent(row) : null;
  }

  recordWebhookAttempt(attempt: WebhookAttempt): void {
    saveWebhookAttempt(this.#sql, attempt);
  }

  /** Item.completed delivery `seq`'s signed event, while it awaits delivery. */
  pendingItemDelivery(seq: number): WebhookEvent | null {
    const row = this.#row();
    return row ? itemDeliveryEvent(this.#sql, row, seq) : null;
  }

  recordItemDeliveryAttempt(
    seq: number,
    attempt: { status: number | null; state: "queued" | "delivered" | "failed" },
  ): void {
    saveItemDeliveryAttempt(this.#sql, seq, attempt);
  }

  /** A delivery (batch.completed, or item.completed `delivery`) gave up without an attempt being recorded (its consumer kept crashing). */
  abandonWebhook(delivery?: number): void {
    if (delivery === undefined) failQueuedWebhook(this.#sql);
    else failItemDelivery(this.#sql, delivery);
  }

  override async alarm(): Promise<void> {
    await this.#sending;
    await this.#advance();
  }

  #advance(): Promise<void> {
    return advance(
      this.#parts,
      () => this.#row(),
      () => this.#dropStagedItems(),
    );
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

  #ownedRow(owner: BatchOwner): BatchRow | undefined {
    const row = this.#row();
    return row && ownedBy(row, owner) ? row : undefined;
  }
}
