import { DurableObject } from "cloudflare:workers";
import { readConfig } from "../base/config";
import { log } from "../base/log";
import { hasSchema } from "../base/sql-migrations";
import type { Tenant } from "../base/tenant";
import type { ErrorCode } from "../http/error-codes";
import { crmClient, openConnection } from "./connections";
import type { CrmProvider } from "./crms";
import type { SyncPage, SyncSummary } from "./schemas";
import { migrate } from "./storage/sync-schema";
import { eraseRecords, ownedBy, pageOf, readRow, type SyncRow, summaryOf, tenantOfRow } from "./storage/sync-store";
import { afterFailure } from "./sync-failures";
import { insertSync, type SyncStart, type UndoStart, undoRecords, undoRefusal, undoStartOf } from "./sync-start";
import { readItems, recheckItems, syncRecords } from "./sync-steps";

type Refusal =
  | { kind: "none" }
  | { kind: "conflict"; why: string; undoneBy?: string }
  | { kind: "not_connected" | "account_changed"; provider: CrmProvider };
export type ApplyAnswer = Refusal | { kind: "applying"; sync: SyncSummary };
export type UndoClaim = Refusal | { kind: "undo"; start: UndoStart };

// The failures of an apply that may come before it wrote anything: then the preview stays applicable.
const REFUSED_BEFORE_WRITING: readonly ErrorCode[] = ["crm_not_connected", "crm_unauthorized", "crm_account_changed"];

/**
 * One CRM sync (a dry run, or a write): its request, its records and their results, in SQLite. The
 * work is the alarm's, a step at a time (sync-steps.ts): a page of the batch's items, then the CRM's
 * batch size of records per step, through the token's governed budget; a 429 or 5xx waits as the CRM
 * says; a refused token ends the sync failed (crm_unauthorized) with what was written counted.
 */
export class CrmSync extends DurableObject<Env> {
  readonly #sql: SqlStorage;
  // Only a started sync has tables: a read of a guessed id leaves no storage behind.
  #hasSchema: boolean;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#hasSchema = hasSchema(this.#sql);
    // applyMigrations runs in one transaction, as every object migrates: all or nothing.
    if (this.#hasSchema) migrate(ctx.storage);
  }

  #read(): SyncRow | undefined {
    return this.#hasSchema ? readRow(this.#sql) : undefined;
  }

  /** Starts a sync of a batch, or an undo (UndoStart: the records to restore); started twice, answers the first. */
  async start(start: SyncStart | UndoStart): Promise<SyncSummary> {
    if (!this.#hasSchema) migrate(this.ctx.storage);
    this.#hasSchema = true;
    const existing = readRow(this.#sql);
    if (existing) return summaryOf(this.#sql, existing);
    this.ctx.storage.transactionSync(() => insertSync(this.#sql, start));
    await this.ctx.storage.setAlarm(Date.now());
    return summaryOf(this.#sql, this.#row());
  }

  page(owner: Tenant, fromIndex: number, limit: number): SyncPage | null {
    const row = this.#read();
    return row && ownedBy(row, owner) ? pageOf(this.#sql, row, fromIndex, limit) : null;
  }

  /** Erases the person of the batch's items at `indexes` from their records (personal-values.ts); answers how many. */
  eraseItems(owner: Tenant, indexes: number[], erasedAt: string): number {
    const row = this.#read();
    if (!row || !ownedBy(row, owner)) return 0;
    const erased = this.ctx.storage.transactionSync(() => eraseRecords(this.#sql, row, indexes, erasedAt));
    if (erased > 0) log("person_erased_from_crm_sync", { sync: row.id, records: erased });
    return erased;
  }

  /** The batch it was made from is deleted: the sync goes whole, as its items did. */
  async forget(owner: Tenant): Promise<void> {
    const row = this.#read();
    if (!row || !ownedBy(row, owner)) return;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.#hasSchema = false;
    log("crm_sync_deleted_with_batch", { sync: row.id });
  }

  /** Writes a completed dry run as previewed: the records it would update are read again and written. */
  async apply(owner: Tenant): Promise<ApplyAnswer> {
    const row = this.#read();
    if (!row || !ownedBy(row, owner)) return { kind: "none" };
    if (!row.dry_run) return { kind: "conflict", why: "This sync is not a dry run: it wrote as it went." };
    if (row.undone_by) return { kind: "conflict", why: `This sync was undone (sync ${row.undone_by}).` };
    if (row.status !== "completed")
      return { kind: "conflict", why: `This sync is ${row.status}; apply a completed dry run.` };
    // Record ids mean something only inside the account they were read from.
    const connection = await openConnection(this.env, tenantOfRow(row), row.provider);
    if (!connection) return { kind: "not_connected", provider: row.provider };
    if (row.crm_account !== null && connection.accountId !== row.crm_account)
      return { kind: "account_changed", provider: row.provider };
    // Another apply may have started while the connection was read: only one starts it.
    if (this.#read()?.status !== "completed") return { kind: "conflict", why: "This sync is running; wait for it." };
    this.ctx.storage.transactionSync(() => {
      // Those it would update, and those the CRM refused (a duplicate since removed may pass now).
      this.#sql.exec("UPDATE records SET done = 0 WHERE outcome IN ('updated', 'failed') AND erased_at IS NULL");
      this.#sql.exec(
        `UPDATE sync SET status = 'running', phase = 'items', next_item = 0, applying = 1, waits = 0, completed_at = NULL,
           wrote = 0, error_code = NULL, error_message = NULL`,
      );
    });
    await this.ctx.storage.setAlarm(Date.now());
    return { kind: "applying", sync: summaryOf(this.#sql, this.#row()) };
  }

  /**
   * Claims this sync's one undo (as `undoId`), in the CRM account it wrote to: answers the undo's start,
   * with the records written and what each wrote. `releaseUndo` gives the claim back if the undo never started.
   */
  async claimUndo(owner: Tenant, undoId: string): Promise<UndoClaim> {
    const row = this.#read();
    if (!row || !ownedBy(row, owner)) return { kind: "none" };
    const refused = undoRefusal(row);
    if (refused) return { kind: "conflict", why: refused, ...(row.undone_by ? { undoneBy: row.undone_by } : {}) };
    const connection = await openConnection(this.env, tenantOfRow(row), row.provider);
    if (!connection) return { kind: "not_connected", provider: row.provider };
    if (row.crm_account !== null && connection.accountId !== row.crm_account)
      return { kind: "account_changed", provider: row.provider };
    // Another undo or apply may have started while the connection was read: only one claims it.
    const now = this.#row();
    const again = undoRefusal(now);
    if (again || now.applied_at !== row.applied_at) return { kind: "conflict", why: again ?? "This sync is running." };
    this.#sql.exec("UPDATE sync SET undone_by = ?", undoId);
    return { kind: "undo", start: undoStartOf(now, undoId, connection.accountId, undoRecords(this.#sql)) };
  }

  releaseUndo(owner: Tenant, undoId: string): void {
    const row = this.#read();
    if (row && ownedBy(row, owner)) this.#sql.exec("UPDATE sync SET undone_by = NULL WHERE undone_by = ?", undoId);
  }

  override async alarm(): Promise<void> {
    const row = this.#read();
    if (!row) return;
    if (row.status !== "running" || Date.now() >= this.#retentionEnd(row)) return this.#expire(row);
    try {
      if (row.phase === "items") {
        // Applying, the items are read again only for who was erased or suppressed since the preview.
        const next = await (row.applying ? recheckItems : readItems)(this.env, this.#sql, row);
        if (next === null) this.#sql.exec("UPDATE sync SET phase = 'records', waits = 0");
        else this.#sql.exec("UPDATE sync SET next_item = ?, waits = 0", next);
      } else {
        const connection = await openConnection(this.env, tenantOfRow(row), row.provider);
        if (!connection)
          return this.#fail(
            "crm_not_connected",
            `Connect ${row.provider} (PUT …/integrations/${row.provider}) and start the sync again.`,
          );
        if (row.crm_account !== null && connection.accountId !== row.crm_account)
          return this.#fail(
            "crm_account_changed",
            `The ${row.provider} connection now points to another account than the one this sync was previewed against; nothing more was written.`,
          );
        const done = await syncRecords(this.#sql, row, crmClient(this.env, connection));
        if (done === 0) return this.#complete();
        this.#sql.exec("UPDATE sync SET waits = 0");
      }
      await this.ctx.storage.setAlarm(Date.now());
    } catch (error) {
      await this.#failed(row, error);
    }
  }

  async #failed(row: SyncRow, error: unknown): Promise<void> {
    const next = afterFailure(error, row.provider, row.waits);
    if ("fail" in next) return this.#fail(next.fail, next.message);
    if (next.unexpected)
      log("crm_sync_step_failed", { sync: row.id, error: error instanceof Error ? error.name : "unknown" });
    this.#sql.exec("UPDATE sync SET waits = waits + 1");
    await this.ctx.storage.setAlarm(Date.now() + next.waitSeconds * 1000);
  }

  /** When the batch's retention ends: the sync, made of its items, goes with them. */
  #retentionEnd(row: SyncRow): number {
    const from = row.batch_completed_at ?? row.completed_at ?? row.created_at;
    return Date.parse(from) + readConfig(this.env).retentionSeconds * 1000;
  }

  /** A finished sync is kept as the report of what was written until the batch's retention ends, then deleted. */
  async #expire(row: SyncRow): Promise<void> {
    const until = this.#retentionEnd(row);
    if (Date.now() < until) await this.ctx.storage.setAlarm(until);
    else {
      await this.ctx.storage.deleteAll();
      this.#hasSchema = false;
    }
  }

  async #complete(): Promise<void> {
    this.#sql.exec("UPDATE sync SET status = 'completed', completed_at = ?", new Date().toISOString());
    await this.#expire(this.#row());
    const row = this.#row();
    log("crm_sync_completed", {
      sync: row.id,
      provider: row.provider,
      applying: row.applying,
      ...summaryOf(this.#sql, row).counts,
    });
  }

  async #fail(code: ErrorCode, message: string): Promise<void> {
    const row = this.#row();
    if (row.applying && !row.wrote && REFUSED_BEFORE_WRITING.includes(code)) return this.#keepPreview(code, message);
    this.#sql.exec(
      "UPDATE sync SET status = 'failed', completed_at = ?, error_code = ?, error_message = ?",
      new Date().toISOString(),
      code,
      message,
    );
    log("crm_sync_failed", { sync: this.#row().id, code });
    await this.#expire(this.#row());
  }

  /**
   * An apply refused before it wrote anything: the dry run is as it was, applicable again once the
   * connection is right; its error says why this apply did not write.
   */
  async #keepPreview(code: ErrorCode, message: string): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      this.#sql.exec("UPDATE records SET done = 1 WHERE done = 0");
      this.#sql.exec(
        "UPDATE sync SET status = 'completed', applying = 0, completed_at = ?, error_code = ?, error_message = ?",
        new Date().toISOString(),
        code,
        `${message} Nothing was written: the preview can be applied again.`,
      );
    });
    log("crm_apply_refused", { sync: this.#row().id, code });
    await this.#expire(this.#row());
  }

  #row(): SyncRow {
    const row = readRow(this.#sql);
    if (!row) throw new Error("the sync has no row");
    return row;
  }
}
