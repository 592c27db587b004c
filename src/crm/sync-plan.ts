// What a sync writes into one CRM record: pure decisions, tested alone (test/unit/crm-sync-plan.test.ts).
import type { CrmRecord, SyncField } from "./crm";
import type { Change, RecordOutcome, RecordReason, SyncRule } from "./schemas";

/** What the batch found for a record, per field: the value to write, if any. */
export type Candidates = Partial<Record<SyncField, string>>;

export interface RecordPlan {
  outcome: RecordOutcome;
  reason?: RecordReason;
  changes: Change[];
}

/** Two values the same for a CRM: emails by their lower case, phones by their digits (and a leading +). */
export function sameValue(field: SyncField, a: string | null | undefined, b: string | null | undefined): boolean {
  const norm = (value: string | null | undefined) => {
    const trimmed = (value ?? "").trim();
    return field === "email" ? trimmed.toLowerCase() : trimmed.replace(/(?!^\+)[^\d]/g, "");
  };
  return norm(a) === norm(b);
}

const isEmpty = (value: string | null | undefined) => (value ?? "").trim() === "";

/**
 * The outcome of a record's changes: updated when any is written; unchanged when none is and a value found
 * is already there (so a sync or an apply repeated finds its own writes unchanged); skipped otherwise.
 */
export function outcomeOf(changes: readonly Change[]): RecordOutcome {
  if (changes.some((change) => change.action === "write")) return "updated";
  return changes.some((change) => change.reason === "same_value") ? "unchanged" : "skipped";
}

/**
 * The changes to `record` for the batch's `candidates`, each decided by its field's rule. Never blanks a
 * value (a candidate is never empty), never writes a value already there; fill_empty writes only into an
 * empty property, skip_if_edited_by_user leaves a value a person set last.
 */
export function planRecord(
  record: CrmRecord | undefined,
  candidates: Candidates,
  rules: Partial<Record<SyncField, SyncRule>>,
  properties: Readonly<Record<SyncField, string>>,
): RecordPlan {
  if (!record) return { outcome: "skipped", reason: "record_not_found", changes: [] };
  const changes: Change[] = [];
  for (const [field, rule] of Object.entries(rules) as [SyncField, SyncRule][]) {
    const after = candidates[field];
    if (after === undefined || isEmpty(after)) continue;
    const property = properties[field];
    const current = record.values[property];
    const before = isEmpty(current) ? null : (current as string);
    const base = { field, property, before, after, rule };
    if (sameValue(field, before, after)) changes.push({ ...base, action: "skip", reason: "same_value" });
    else if (before !== null && rule === "fill_empty") changes.push({ ...base, action: "skip", reason: "not_empty" });
    else if (before !== null && rule === "skip_if_edited_by_user" && record.editedByUser[property])
      changes.push({ ...base, action: "skip", reason: "edited_by_user" });
    else changes.push({ ...base, action: "write" });
  }
  return changes.length === 0
    ? { outcome: "skipped", reason: "nothing_found", changes }
    : { outcome: outcomeOf(changes), changes };
}

/**
 * Applying a dry run: its writes exactly as previewed, against the record as it is now. A value already
 * written is unchanged; if any previewed property changed since (neither its `before` nor its `after`),
 * the record is left whole (changed_since_preview).
 */
export function planApply(record: CrmRecord | undefined, previewed: readonly Change[]): RecordPlan {
  if (!record) return { outcome: "skipped", reason: "record_not_found", changes: [...previewed] };
  const current = (change: Change) => record.values[change.property];
  const writes = previewed.filter((change) => change.action === "write");
  const moved = writes.some(
    (change) =>
      !sameValue(change.field, current(change), change.before) &&
      !sameValue(change.field, current(change), change.after),
  );
  const changes = previewed.map((change): Change => {
    if (change.action !== "write") return change;
    if (moved) return { ...change, action: "skip", reason: "changed_since_preview" };
    return sameValue(change.field, current(change), change.after)
      ? { ...change, action: "skip", reason: "same_value" }
      : change;
  });
  return { outcome: outcomeOf(changes), changes };
}

/**
 * What a finished record wrote into the CRM: its writes when it was updated; and in an apply repeated, the
 * values the first apply wrote, which the second finds there (same_value, though the CRM held another before).
 */
export function writtenChanges(outcome: RecordOutcome | null, changes: readonly Change[]): Change[] {
  return changes.filter((change) =>
    change.action === "write"
      ? outcome === "updated"
      : change.reason === "same_value" && !sameValue(change.field, change.before, change.after),
  );
}

/**
 * Undoing a write: each property written goes back to its value from before (blank included), unless
 * someone changed it after the write (it no longer holds what was written, or a person edited it last:
 * changed_since_apply). A property already back as it was is left (same_value). `before` is what it holds
 * now, `after` what the undo writes.
 */
export function planUndo(record: CrmRecord | undefined, written: readonly Change[]): RecordPlan {
  const reversed = ({ field, property, rule, before }: Change, now: string | null | undefined): Change => ({
    field,
    property,
    rule,
    before: isEmpty(now) ? null : (now ?? null),
    after: before,
    action: "write",
  });
  if (!record)
    return {
      outcome: "skipped",
      reason: "record_not_found",
      changes: written.map((change) => ({ ...reversed(change, change.after), action: "skip" })),
    };
  const changes = written.map((change): Change => {
    const now = record.values[change.property];
    const undo = reversed(change, now);
    if (sameValue(change.field, now, change.before)) return { ...undo, action: "skip", reason: "same_value" };
    if (!sameValue(change.field, now, change.after) || record.editedByUser[change.property])
      return { ...undo, action: "skip", reason: "changed_since_apply" };
    return undo;
  });
  return { outcome: outcomeOf(changes), changes };
}

/** The update a record's changes make (null: blank the property), or null when nothing is written. */
export function valuesToWrite(changes: readonly Change[]): Record<string, string | null> | null {
  const writes = changes.filter((change) => change.action === "write");
  return writes.length === 0 ? null : Object.fromEntries(writes.map((change) => [change.property, change.after]));
}
