// What of a stored sync record is personal: one place decides, for a person's erasure and for a batch's
// deletion alike (sync-store.ts applies it). Personal: the values the batch found for the person (the
// record's candidates, each change's `after`), the values the CRM held before (each change's `before`,
// which an undo would write back), the match key when it is the person's email, and the CRM's words on
// a refused write (they may quote a value). Not personal: the item's index, the CRM's record id (the
// customer's own id for the record), and whether a write was made.
import type { SyncField } from "./crm";
import type { RecordError, RecordOutcome, RecordReason, SYNC_MATCHES } from "./schemas";

/** A stored record as an erasure reads it. */
export interface ErasableRecord {
  matchKey: string | null;
  done: boolean;
  outcome: RecordOutcome | null;
  reason: RecordReason | null;
  error: RecordError | null;
}

/** What the record holds once its person is erased: nothing personal, and why. */
export interface ErasedRecord {
  matchKey: string | null;
  candidates: Partial<Record<SyncField, string>>;
  changes: [];
  done: true;
  outcome: RecordOutcome;
  reason: RecordReason | null;
  error: RecordError | null;
}

/** The columns holding personal values, overwritten with zeros before the record is rewritten (privacy/storage/scrub.ts). */
export const PERSONAL_RECORD_COLUMNS = ["match_key", "candidates", "changes", "error"] as const;

/**
 * A record emptied of its person: what was written into the CRM stays said (its outcome, when `written`:
 * the sync wrote as it went, or was applied), anything else becomes skipped because erased, so no later
 * step or apply writes for them.
 */
export function erasedRecord(
  record: ErasableRecord,
  match: (typeof SYNC_MATCHES)[number],
  written: boolean,
): ErasedRecord {
  const kept = written && record.done && record.outcome !== null;
  return {
    matchKey: match === "email" ? null : record.matchKey,
    candidates: {},
    changes: [],
    done: true,
    outcome: kept && record.outcome !== null ? record.outcome : "skipped",
    reason: kept ? record.reason : "erased",
    error: record.error ? { code: record.error.code, message: "" } : null,
  };
}
