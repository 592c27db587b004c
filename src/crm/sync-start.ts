// A sync's one row, as it starts: a sync of a batch (POST …/crm-syncs), or the undo of one (POST …/undo),
// which goes straight to its records (those its sync wrote) and writes at once.
import type { Tenant } from "../base/tenant";
import type { Change, SyncRequest } from "./schemas";
import { recordRowSchema, type SyncRow, tenantOfRow } from "./storage/sync-store";
import { writtenChanges } from "./sync-plan";

/** What starts a sync: the validated request, its id and owner. */
export interface SyncStart extends SyncRequest {
  id: string;
  tenant: Tenant;
  createdAt: string;
  /** The CRM account (HubSpot portal, Salesforce org) of the connection it is previewed against. */
  crmAccount: string;
  /** When the batch completed: its retention, which the sync shares, runs from then. */
  batchCompletedAt: string | null;
}

/** An undo: the sync it undoes, and the records that sync wrote (each with its writes). */
export interface UndoStart extends SyncStart {
  undoOf: string;
  records: UndoRecord[];
}

export function insertSync(sql: SqlStorage, start: SyncStart | UndoStart): void {
  const undo = "undoOf" in start ? start : null;
  sql.exec(
    `INSERT INTO sync (id, customer_id, environment, jurisdiction, batch_id, provider, match, fields, dry_run, status, phase,
       created_at, crm_account, batch_completed_at, undo_of)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
    start.id,
    start.tenant.customerId,
    start.tenant.environment,
    start.tenant.jurisdiction ?? null,
    start.batchId,
    start.provider,
    start.match,
    JSON.stringify(start.fields),
    start.dryRun ? 1 : 0,
    undo ? "records" : "items",
    start.createdAt,
    start.crmAccount,
    start.batchCompletedAt,
    undo?.undoOf ?? null,
  );
  if (undo) insertUndoRecords(sql, undo.records);
}

/** Why a sync cannot be undone (crm_sync_not_undoable), or null when it can. */
export function undoRefusal(row: SyncRow): string | null {
  if (row.undo_of !== null) return "This sync is an undo; it cannot be undone in turn.";
  if (row.undone_by !== null)
    return `This sync was undone already (sync ${row.undone_by}): undoing again writes nothing.`;
  if (row.status === "running") return "This sync is running; undo it once it is done.";
  if (row.applied_at === null && !(row.wrote && !row.dry_run))
    return row.dry_run
      ? "This dry run was never applied: it wrote nothing to undo."
      : "This sync wrote nothing to undo.";
  return null;
}

/** The undo's own start: the sync's request, owner, account and retention, and a new id. */
export const undoStartOf = (row: SyncRow, undoId: string, crmAccount: string, records: UndoRecord[]): UndoStart => ({
  id: undoId,
  tenant: tenantOfRow(row),
  batchId: row.batch_id,
  provider: row.provider,
  match: row.match,
  fields: row.fields,
  dryRun: false,
  createdAt: new Date().toISOString(),
  crmAccount,
  batchCompletedAt: row.batch_completed_at,
  undoOf: row.id,
  records,
});

/** A record an undo restores: the CRM record, and the changes written into it (sync-plan.ts writtenChanges). */
export interface UndoRecord {
  index: number;
  recordId: string;
  changes: Change[];
}

/** The records of a sync that wrote, each with what it wrote (an erased person's records hold nothing). */
export function undoRecords(sql: SqlStorage): UndoRecord[] {
  return sql
    .exec(
      "SELECT * FROM records WHERE done = 1 AND outcome IN ('updated', 'unchanged') AND record_id IS NOT NULL AND erased_at IS NULL ORDER BY idx",
    )
    .toArray()
    .map((record) => recordRowSchema().parse(record))
    .flatMap((record) => {
      const changes = writtenChanges(record.outcome, record.changes);
      return record.record_id === null || changes.length === 0
        ? []
        : [{ index: record.idx, recordId: record.record_id, changes }];
    });
}

/** An undo's records, pending: keyed by the CRM record id, the changes to undo in place of the plan. */
function insertUndoRecords(sql: SqlStorage, records: readonly UndoRecord[]): void {
  for (const record of records)
    sql.exec(
      "INSERT OR IGNORE INTO records (idx, match_key, candidates, done, changes) VALUES (?, ?, '{}', 0, ?)",
      record.index,
      record.recordId,
      JSON.stringify(record.changes),
    );
}
