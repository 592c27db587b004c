import { DurableObject } from "cloudflare:workers";
import type { BudgetSettings, ReservationDecision } from "../credits/budget";
import type { BudgetAlert } from "../credits/budget-charges";
import * as charges from "../credits/budget-charges";
import * as budgets from "../credits/budget-store";
import { type LedgerList, type LedgerPage, readLedger } from "../credits/ledger-store";
import * as crm from "../crm/storage/account-connections";
import type { NewestFirstPage } from "../http/paging";
import type { ErasureReceipt } from "../privacy/schemas";
import { AccountPrivacy, type PrivacyScreen } from "../privacy/storage/account-privacy";
import type { KeyedHashListName } from "../privacy/storage/keyed-hash-list";
import { appliedSeq, listBatches, upsertBatch } from "./batch-list";
import type { Learned } from "./learned";
import type { ListPage } from "./list-query";
import type { BatchReport } from "./report";
import { chargeEntry } from "./report";
import { migrate } from "./schema";
import type { SourceCounts } from "./scorecard";
import { scorecardRange, type UsageRange } from "./usage-query";
import { addUsageRows, readLearned, readSourceCounts, readUsage } from "./usage-store";
import type { BatchList, UsageReport } from "./views";

/**
 * One customer in one environment, where its data must be exact together: one object, one SQLite database,
 * its RPC surface grouped by job, each group a thin door to the room that owns its SQL and decisions:
 * - the batch list and usage (this room: batch-list.ts, usage-store.ts), fed by the batches' reports;
 * - the consumer's read of a group (screenGroup): privacy's screen and the learned order's records, each its
 *   room's read, answered together so a group costs one request;
 * - privacy (`privacy…`: src/privacy/storage/account-privacy.ts): the person index, erasure receipts,
 *   the do-not-enrich and do-not-deliver lists;
 * - CRM (`crm…`: src/crm/account-connections.ts): connections (tokens sealed) and the syncs of each batch.
 * Batch objects report from their alarms, never on a request's critical path; each report carries numbered
 * outbox rows, and each number is applied once, so usage stays exact when a report is repeated.
 */
export class Account extends DurableObject<Env> {
  readonly #sql: SqlStorage;
  readonly #privacy: AccountPrivacy;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    migrate(ctx.storage);
    this.#privacy = new AccountPrivacy(ctx.storage);
  }

  /**
   * Applies a batch's report, in one transaction across the jobs it feeds (the batch list, usage, the person
   * index, the batch's CRM syncs); answers the highest outbox seq now applied, which the batch may forget.
   */
  report({ batch, entries, people = [] }: BatchReport): { reportedSeq: number; alerts: BudgetAlert[] } {
    return this.ctx.storage.transactionSync(() => {
      const usedBefore = budgets.usedThisMonth(this.#sql, Date.now());
      this.#privacy.indexBatch(batch, people);
      // Past its retention, its syncs have gone with it (each expires at the batch's retention end).
      if (batch.expiredAt !== null) crm.forgetSyncs(this.#sql, batch.id);
      const applied = appliedSeq(this.#sql, batch.id);
      const fresh = entries.filter(({ seq }) => seq > applied);
      for (const entry of fresh) addUsageRows(this.#sql, entry.day, entry.usage);
      const reportedSeq = Math.max(applied, ...entries.map(({ seq }) => seq));
      upsertBatch(this.#sql, batch, reportedSeq);
      // The month's budget: the fresh entries' charges (reservations shrink, the ledger grows), then its alerts.
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
    return listBatches(this.#sql, page);
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
   * The consumer's one call per batch group of messages: two jobs' reads in one request. Privacy's screen of
   * the group's hashed keys (account-privacy.ts) and, given the group's company domains (live, when the
   * waterfall learns its order), what the learned order weighs (learned.ts): the finders' records over the
   * last 30 days, and per domain. Each read is its own room's; answering both here saves a second request.
   */
  screenGroup(keys: string[], domains?: string[]): { screen: PrivacyScreen; learned?: Learned } {
    const screen = this.#privacy.screen(keys);
    if (domains === undefined) return { screen };
    return { screen, learned: readLearned(this.#sql, scorecardRange(Date.now()), domains) };
  }

  /** Which batches may hold a person (any of their hashed identifier keys), and the hashes of their cached results. */
  privacyHolders(keys: string[]): { batchIds: string[]; personHashes: string[] } {
    return this.#privacy.holders(keys);
  }

  privacySaveErasure(receipt: ErasureReceipt, keys: string[], suppress: boolean): void {
    this.#privacy.saveErasure(receipt, keys, suppress);
  }

  privacyErasure(id: string): ErasureReceipt | null {
    return this.#privacy.erasure(id);
  }

  /** Puts keyed hashes on a list (the do-not-enrich or the do-not-deliver list); answers how many were new. */
  privacyAdd(list: KeyedHashListName, keys: string[]): number {
    return this.#privacy.add(list, keys);
  }

  privacyRemove(list: KeyedHashListName, key: string): boolean {
    return this.#privacy.remove(list, key);
  }

  privacyPage(list: KeyedHashListName, page: NewestFirstPage) {
    return this.#privacy.page(list, page);
  }

  privacyAmong(list: KeyedHashListName, keys: string[]): string[] {
    return this.#privacy.among(list, keys);
  }

  /** The CRM connections (their tokens sealed): crm/connections.ts is their one reader and writer. */
  crmSaveConnection(connection: crm.StoredConnection): void {
    crm.saveConnection(this.#sql, connection);
  }

  crmConnection(provider: string): crm.StoredConnection | null {
    return crm.readConnection(this.#sql, provider);
  }

  crmConnections(): crm.StoredConnection[] {
    return crm.listConnections(this.#sql);
  }

  crmRemoveConnection(provider: string): boolean {
    return crm.removeConnection(this.#sql, provider);
  }

  /** The CRM syncs made from each batch (crm/sync-erasure.ts is their one reader and writer). */
  crmNoteSync(batchId: string, syncId: string): void {
    crm.noteSync(this.#sql, batchId, syncId);
  }

  crmSyncsOf(batchIds: string[]): { batchId: string; syncId: string }[] {
    return crm.syncsOf(this.#sql, batchIds);
  }

  crmForgetSyncs(batchId: string): void {
    crm.forgetSyncs(this.#sql, batchId);
  }
}
