// The sync object's SQL: its one row and its records, read back through zod (what storage hands back is
// validated like any input), and the page GET …/crm-syncs/{id} shows.
import * as z from "zod";
import { once } from "../../base/once";
import type { Tenant } from "../../base/tenant";
import { encodeItemCursor } from "../../http/item-cursor";
import { zeroed } from "../../privacy/storage/scrub";
import { SYNC_FIELDS } from "../crm";
import { CRM_PROVIDERS } from "../crms";
import { erasedRecord, PERSONAL_RECORD_COLUMNS } from "../personal-values";
import {
  type Change,
  changeSchema,
  RECORD_OUTCOMES,
  RECORD_REASONS,
  type RecordError,
  type RecordOutcome,
  type RecordReason,
  SYNC_MATCHES,
  SYNC_RULES,
  SYNC_STATUSES,
  type SyncCounts,
  type SyncPage,
  type SyncRecord,
  type SyncSummary,
} from "../schemas";
import type { Candidates } from "../sync-plan";

const rulesSchema = once(() => z.partialRecord(z.enum(SYNC_FIELDS), z.enum(SYNC_RULES)));
const candidatesSchema = once(() => z.partialRecord(z.enum(SYNC_FIELDS), z.string()));
const errorSchema = once(() => z.object({ code: z.string(), message: z.string() }));

const rowSchema = once(() =>
  z.object({
    id: z.string(),
    customer_id: z.string(),
    environment: z.enum(["test", "live"]),
    jurisdiction: z.literal("eu").nullable(),
    batch_id: z.string(),
    provider: z.enum(CRM_PROVIDERS),
    match: z.enum(SYNC_MATCHES),
    fields: z.string().transform((text) => rulesSchema().parse(JSON.parse(text))),
    dry_run: z.number().transform(Boolean),
    status: z.enum(SYNC_STATUSES),
    phase: z.enum(["items", "records"]),
    applying: z.number().transform(Boolean),
    next_item: z.number(),
    waits: z.number(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    applied_at: z.string().nullable(),
    error_code: z.string().nullable(),
    error_message: z.string().nullable(),
    crm_account: z.string().nullable(),
    wrote: z.number().transform(Boolean),
    batch_completed_at: z.string().nullable(),
    undo_of: z.string().nullable(),
    undone_by: z.string().nullable(),
  }),
);
export type SyncRow = z.output<ReturnType<typeof rowSchema>>;

export const recordRowSchema = once(() =>
  z.object({
    idx: z.number(),
    match_key: z.string().nullable(),
    record_id: z.string().nullable(),
    candidates: z.string().transform((text) => candidatesSchema().parse(JSON.parse(text))),
    done: z.number().transform(Boolean),
    outcome: z.enum(RECORD_OUTCOMES).nullable(),
    reason: z.enum(RECORD_REASONS).nullable(),
    changes: z.string().transform((text) => z.array(changeSchema()).parse(JSON.parse(text))),
    error: z
      .string()
      .nullable()
      .transform((text) => (text === null ? null : errorSchema().parse(JSON.parse(text)))),
    erased_at: z.string().nullable(),
  }),
);
export type RecordRow = z.output<ReturnType<typeof recordRowSchema>>;

export const readRow = (sql: SqlStorage): SyncRow | undefined => {
  const row = sql.exec("SELECT * FROM sync").toArray()[0];
  return row === undefined ? undefined : rowSchema().parse(row);
};

export const ownedBy = (row: SyncRow, owner: Tenant) =>
  row.customer_id === owner.customerId && row.environment === owner.environment;

export const tenantOfRow = (row: SyncRow): Tenant => ({
  customerId: row.customer_id,
  environment: row.environment,
  ...(row.jurisdiction ? { jurisdiction: row.jurisdiction } : {}),
});

/** A record as the items step makes it: pending (with its key and candidates), or skipped at once with why. */
export type NewRecord =
  | { index: number; key: string; candidates: Candidates }
  | { index: number; key: string | null; reason: RecordReason };

export function insertRecords(sql: SqlStorage, records: readonly NewRecord[]): void {
  for (const record of records) {
    const skipped = "reason" in record;
    sql.exec(
      `INSERT OR IGNORE INTO records (idx, match_key, candidates, done, outcome, reason) VALUES (?, ?, ?, ?, ?, ?)`,
      record.index,
      record.key,
      JSON.stringify(skipped ? {} : record.candidates),
      skipped ? 1 : 0,
      skipped ? "skipped" : null,
      skipped ? record.reason : null,
    );
  }
}

/** Whether an earlier item, one with something to write, holds `key` already (two items for one CRM record). */
export const keyTaken = (sql: SqlStorage, key: string, index: number): boolean =>
  sql.exec("SELECT 1 FROM records WHERE match_key = ? AND idx < ? AND reason IS NULL LIMIT 1", key, index).toArray()
    .length > 0;

export const pendingRecords = (sql: SqlStorage, limit: number): RecordRow[] =>
  sql
    .exec("SELECT * FROM records WHERE done = 0 ORDER BY idx LIMIT ?", limit)
    .toArray()
    .map((row) => recordRowSchema().parse(row));

/** A pending record left out whole (applying: its person was erased or suppressed since the preview). */
export function skipPending(sql: SqlStorage, index: number, reason: RecordReason): void {
  sql.exec("UPDATE records SET done = 1, outcome = 'skipped', reason = ? WHERE idx = ? AND done = 0", reason, index);
}

export interface RecordResult {
  index: number;
  recordId: string | null;
  outcome: RecordOutcome;
  reason?: RecordReason;
  changes: Change[];
  error?: RecordError;
}

export function saveResult(sql: SqlStorage, result: RecordResult): void {
  sql.exec(
    // A record whose person was erased during the step keeps nothing of what the step read.
    "UPDATE records SET done = 1, record_id = ?, outcome = ?, reason = ?, changes = ?, error = ? WHERE idx = ? AND erased_at IS NULL",
    result.recordId,
    result.outcome,
    result.reason ?? null,
    JSON.stringify(result.changes),
    result.error ? JSON.stringify(result.error) : null,
    result.index,
  );
}

function countsOf(sql: SqlStorage): SyncCounts {
  const counts: SyncCounts = { updated: 0, unchanged: 0, skipped: 0, failed: 0 };
  for (const { outcome, n } of sql.exec<{ outcome: RecordOutcome; n: number }>(
    "SELECT outcome, count(*) AS n FROM records WHERE done = 1 GROUP BY outcome",
  ))
    counts[outcome] = n;
  return counts;
}

export function summaryOf(sql: SqlStorage, row: SyncRow): SyncSummary {
  return {
    id: row.id,
    status: row.status,
    provider: row.provider,
    batchId: row.batch_id,
    match: row.match,
    fields: row.fields,
    dryRun: row.dry_run,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    appliedAt: row.applied_at,
    undoOf: row.undo_of,
    undoneBy: row.undone_by,
    counts: countsOf(sql),
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? "" } : null,
  };
}

/**
 * Erases the person of the items at `indexes` from their records (personal-values.ts decides what goes),
 * their personal columns overwritten with zeros first; answers how many records. Within the caller's transaction.
 */
export function eraseRecords(sql: SqlStorage, row: SyncRow, indexes: readonly number[], erasedAt: string): number {
  const written = !row.dry_run || row.applied_at !== null;
  const records = sql
    .exec(
      "SELECT * FROM records WHERE idx IN (SELECT value FROM json_each(?)) AND erased_at IS NULL",
      JSON.stringify(indexes),
    )
    .toArray()
    .map((record) => recordRowSchema().parse(record));
  const zeros = PERSONAL_RECORD_COLUMNS.map((column) => `${column} = ${zeroed(column)}`).join(", ");
  for (const record of records) {
    const erased = erasedRecord(
      {
        matchKey: record.match_key,
        done: record.done,
        outcome: record.outcome,
        reason: record.reason,
        error: record.error,
      },
      row.match,
      written,
    );
    sql.exec(`UPDATE records SET ${zeros} WHERE idx = ?`, record.idx);
    sql.exec(
      `UPDATE records SET match_key = ?, candidates = ?, changes = '[]', done = 1, outcome = ?, reason = ?, error = ?,
         erased_at = ? WHERE idx = ?`,
      erased.matchKey,
      JSON.stringify(erased.candidates),
      erased.outcome,
      erased.reason,
      erased.error ? JSON.stringify(erased.error) : null,
      erasedAt,
      record.idx,
    );
  }
  return records.length;
}

export function pageOf(sql: SqlStorage, row: SyncRow, fromIndex: number, limit: number): SyncPage {
  const rows = sql
    .exec("SELECT * FROM records WHERE idx >= ? ORDER BY idx LIMIT ?", fromIndex, limit + 1)
    .toArray()
    .map((record) => recordRowSchema().parse(record));
  const records = rows.slice(0, limit).map(
    (record): SyncRecord => ({
      index: record.idx,
      // By externalId, the key is the record's id, also for a record skipped before it was read.
      recordId: record.record_id ?? (row.match === "externalId" ? record.match_key : null),
      outcome: record.done ? record.outcome : null,
      ...(record.reason ? { reason: record.reason } : {}),
      changes: record.changes,
      ...(record.error ? { error: record.error } : {}),
      ...(record.erased_at ? { erasedAt: record.erased_at } : {}),
    }),
  );
  const next = rows[limit];
  return { ...summaryOf(sql, row), records, nextCursor: next ? encodeItemCursor(next.idx) : null };
}
