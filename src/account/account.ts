import { DurableObject } from "cloudflare:workers";
import { type SummaryColumns, summaryOf } from "../contact-info/batch-views";
import type { DoNotDeliverList, ErasureReceipt, SuppressionList } from "../contact-info/privacy-views";
import type { BudgetSettings, ReservationDecision } from "../credits/budget";
import type { BudgetAlert } from "../credits/budget-charges";
import * as charges from "../credits/budget-charges";
import * as budgets from "../credits/budget-store";
import { type LedgerList, type LedgerPage, readLedger } from "../credits/ledger-store";
import type { NewestFirstPage } from "../http/paging";
import * as undeliverable from "../privacy/storage/do-not-deliver-list";
import * as erasures from "../privacy/storage/erasure-receipts";
import * as personIndex from "../privacy/storage/person-index";
import * as suppressions from "../privacy/storage/suppression-list";
import type { SuppressionPage } from "../privacy/storage/suppression-query";
import * as crm from "./crm-connections";
import type { Learned } from "./learned";
import { batchListPaging, type ListPage } from "./list-query";
import type { BatchReport } from "./report";
import { chargeEntry } from "./report";
import { migrate } from "./schema";
import type { SourceCounts } from "./scorecard";
import { scorecardRange, type UsageRange } from "./usage-query";
import { addUsageRows, readLearned, readSourceCounts, readUsage } from "./usage-store";
import type { BatchList, UsageReport } from "./views";

/**
 * One customer in one environment: the list of its batches and its usage per
 * UTC day. Batch objects report to it from their alarms, never on a request's
 * critical path; each report carries numbered outbox rows, and each number is
 * applied once, so usage stays exact when a report is repeated.
 */
export class Account extends DurableObject<Env> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    migrate(this.#sql);
  }

  /** Applies a batch's report; answers the highest outbox seq now applied, which the batch may forget. */
  report({ batch, entries, people = [] }: BatchReport): { reportedSeq: number; alerts: BudgetAlert[] } {
    return this.ctx.storage.transactionSync(() => {
      const usedBefore = budgets.usedThisMonth(this.#sql, Date.now());
      // A batch emptied (deleted, or expired) holds no one any more.
      if (batch.deletedAt === null && batch.expiredAt === null) personIndex.indexPeople(this.#sql, batch.id, people);
      else personIndex.unindexBatch(this.#sql, batch.id);
      // Past its retention, its syncs have gone with it (each expires at the batch's retention end).
      if (batch.expiredAt !== null) crm.forgetSyncs(this.#sql, batch.id);
      const applied =
        this.#sql.exec<{ reported_seq: number }>("SELECT reported_seq FROM batches WHERE id = ?", batch.id).toArray()[0]
          ?.reported_seq ?? 0;
      const fresh = entries.filter(({ seq }) => seq > applied);
      for (const entry of fresh) addUsageRows(this.#sql, entry.day, entry.usage);
      const reportedSeq = Math.max(applied, ...entries.map(({ seq }) => seq));
      // Counters only grow and dates once set stay, so reports applied in any order agree.
      this.#sql.exec(
        `INSERT INTO batches (id, total_items, completed_items, failed_items, created_at, completed_at, deleted_at, reported_seq,
                              credits_charged, max_credits, people_complete, credits_refunded)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET
           people_complete = max(people_complete, excluded.people_complete),
           completed_items = max(completed_items, excluded.completed_items),
           failed_items = max(failed_items, excluded.failed_items),
           credits_charged = max(credits_charged, excluded.credits_charged),
           credits_refunded = max(credits_refunded, excluded.credits_refunded),
           completed_at = coalesce(completed_at, excluded.completed_at),
           deleted_at = coalesce(deleted_at, excluded.deleted_at),
           reported_seq = max(reported_seq, excluded.reported_seq)`,
        batch.id,
        batch.totalItems,
        batch.completedItems,
        batch.failedItems,
        batch.createdAt,
        batch.completedAt,
        batch.deletedAt,
        reportedSeq,
        batch.creditsCharged,
        batch.maxCredits,
        batch.peopleComplete ? 1 : 0,
        batch.creditsRefunded,
      );
      charges.applyCharges(this.#sql, batch.id, fresh.map(chargeEntry));
      charges.noteAlerts(this.#sql, Date.now(), usedBefore);
      return { reportedSeq, alerts: charges.unsentAlerts(this.#sql) };
    });
  }

  /** The month's budget (credits/budget-store.ts), with the calling key's cap. */
  budget(key: budgets.KeyCap): budgets.BudgetState {
    return budgets.readBudget(this.#sql, Date.now(), key);
  }

  setBudget(settings: BudgetSettings, key: budgets.KeyCap): budgets.BudgetState {
    this.ctx.storage.transactionSync(() => budgets.saveSettings(this.#sql, settings));
    return budgets.readBudget(this.#sql, Date.now(), key);
  }

  /** Reserves a batch's cap before it is created, or refuses it: one transaction, so submits at once cannot overspend. */
  reserve(batchId: string, cap: number, key: budgets.KeyCap): ReservationDecision {
    return this.ctx.storage.transactionSync(() => budgets.reserve(this.#sql, Date.now(), batchId, cap, key));
  }

  /** The budget.threshold events the webhook hub now holds (the batch's alarm handed them over). */
  alertsSent(alerts: BudgetAlert[]): void {
    for (const alert of alerts) charges.markAlertSent(this.#sql, alert, Date.now());
  }

  ledger(page: LedgerPage): LedgerList {
    return readLedger(this.#sql, page);
  }

  /** One page of the batches not deleted, newest first. */
  list(page: ListPage): BatchList {
    const { shown, nextCursor } = batchListPaging.rows<SummaryColumns>(
      this.#sql,
      {
        columns: `id, total_items, completed_items, failed_items, created_at, completed_at, credits_charged,
                  credits_refunded, max_credits`,
        from: "batches",
        id: "id",
        where: "deleted_at IS NULL",
      },
      page,
    );
    return { batches: shown.map(summaryOf), nextCursor };
  }

  /** Usage per UTC day in the range, every day listed, and the totals. */
  usage(range: UsageRange): UsageReport {
    return readUsage(this.#sql, range);
  }

  /** Per data source, its counts over the days of `range`, for its scorecard (scorecard.ts). */
  sourceCounts(range: UsageRange): SourceCounts[] {
    return readSourceCounts(this.#sql, range);
  }

  /**
   * Which batches may hold a person (any of their hashed identifier keys): those the index names, and
   * those not yet wholly in it (their people are sent once they complete); never a scan of the batches.
   */
  holders(keys: string[]): { batchIds: string[]; personHashes: string[] } {
    return personIndex.holders(this.#sql, keys);
  }

  saveErasure(receipt: ErasureReceipt, keys: string[], suppress: boolean): void {
    this.ctx.storage.transactionSync(() => erasures.saveErasure(this.#sql, receipt, keys, suppress));
  }

  erasure(id: string): ErasureReceipt | null {
    return erasures.readErasure(this.#sql, id);
  }

  suppress(keys: string[]): { added: number } {
    return { added: suppressions.addSuppressions(this.#sql, keys, new Date().toISOString()) };
  }

  unsuppress(key: string): boolean {
    return suppressions.removeSuppression(this.#sql, key);
  }

  suppressions(page: SuppressionPage): SuppressionList {
    return suppressions.listSuppressions(this.#sql, page);
  }

  /**
   * Of `keys`, those on the suppression list: the consumer asks once per batch group of messages. And
   * whether the do-not-deliver list holds anything, so only a customer who reported feedback costs the
   * consumer a second call (undeliverableAmong), once the group's contacts are found. Given the group's
   * company domains, also what the learned order weighs (learned.ts).
   */
  suppressedAmong(keys: string[], domains?: string[]): { suppressed: string[]; withholds: boolean; learned?: Learned } {
    const withholds = undeliverable.withholdsAny(this.#sql);
    const suppressed = suppressions.suppressedAmong(this.#sql, keys);
    // Asked with the group's company domains when the waterfall learns its order: the finders' records.
    if (domains === undefined) return { suppressed, withholds };
    return { suppressed, withholds, learned: readLearned(this.#sql, scorecardRange(Date.now()), domains) };
  }

  /** The CRM connections (their tokens sealed): crm/connections.ts is their one reader and writer. */
  saveConnection(connection: crm.StoredConnection): void {
    crm.saveConnection(this.#sql, connection);
  }

  connection(provider: string): crm.StoredConnection | null {
    return crm.readConnection(this.#sql, provider);
  }

  connections(): crm.StoredConnection[] {
    return crm.listConnections(this.#sql);
  }

  removeConnection(provider: string): boolean {
    return crm.removeConnection(this.#sql, provider);
  }

  /** The CRM syncs made from each batch (crm/sync-erasure.ts is their one reader and writer). */
  noteSync(batchId: string, syncId: string): void {
    crm.noteSync(this.#sql, batchId, syncId);
  }

  syncsOf(batchIds: string[]): { batchId: string; syncId: string }[] {
    return crm.syncsOf(this.#sql, batchIds);
  }

  forgetSyncs(batchId: string): void {
    crm.forgetSyncs(this.#sql, batchId);
  }

  /** Puts contact values (keyed hashes, contact-info/feedback.ts) on the do-not-deliver list; idempotent. */
  doNotDeliver(keys: string[]): void {
    undeliverable.addUndeliverable(this.#sql, keys, new Date().toISOString());
  }

  /** Whether the key was on the do-not-deliver list (and is no more): its value may be delivered again. */
  deliverAgain(key: string): boolean {
    return undeliverable.removeUndeliverable(this.#sql, key);
  }

  undeliverables(page: NewestFirstPage): DoNotDeliverList {
    return undeliverable.listUndeliverable(this.#sql, page);
  }

  /** Of `keys` (hashed contact values), those on the do-not-deliver list. */
  undeliverableAmong(keys: string[]): string[] {
    return undeliverable.undeliverableAmong(this.#sql, keys);
  }
}
