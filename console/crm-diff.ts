// A sync's records as lines a person reads: one per property of each record (before,
// after, what was or would be done, why, and the rule that decided), and one for a
// record that failed. The same lines fill the diff table and the downloadable report.
import type { SyncRecord } from "./crm-api";
import { plainSkip, RULE_WORDS } from "./words";

/** Who a batch item is, for the person reviewing: its name (or email, or LinkedIn URL) and its externalId. */
export interface Person {
  name: string;
  externalId: string | null;
}

export interface DiffLine {
  index: number;
  recordId: string;
  person: string;
  property: string;
  before: string;
  after: string;
  /** "Write", "Skip" for a preview; "Written", "Skipped", "Failed" once applied. */
  action: string;
  why: string;
  rule: string;
  /** The API's code for a skip or a failure. */
  code: string;
}

function actionOf(action: "write" | "skip", applied: boolean, failed: boolean): string {
  if (action === "write" && failed) return "Failed";
  if (!applied) return action === "write" ? "Write" : "Skip";
  return action === "write" ? "Written" : "Skipped";
}

/**
 * Each record's lines: one per property, or one for the whole record when it was skipped (nothing found,
 * no such record) or failed. `applied`: the lines say what was done, else what would be.
 */
export function diffLines(
  records: readonly SyncRecord[],
  applied: boolean,
  people: ReadonlyMap<number, Person> = new Map(),
): DiffLine[] {
  return records.flatMap((record) => {
    const person = people.get(record.index);
    // A record skipped before the CRM was read (nothing found) has no recordId: a list's item has it as externalId.
    const base = {
      index: record.index,
      recordId: record.recordId ?? person?.externalId ?? "",
      person: person?.name ?? "",
    };
    const failed = record.outcome === "failed";
    const whyFailed = record.error ? record.error.message : "";
    const lines = record.changes.map(
      (change): DiffLine => ({
        ...base,
        property: change.property,
        before: change.before ?? "",
        // An undo blanks a property that was empty before its write.
        after: change.after ?? "",
        action: actionOf(change.action, applied, failed),
        why: change.reason ? plainSkip(change.reason) : change.action === "write" && failed ? whyFailed : "",
        rule: RULE_WORDS[change.rule].label,
        code: change.reason ?? (change.action === "write" && failed ? (record.error?.code ?? "") : ""),
      }),
    );
    if (lines.length > 0) return lines;
    const code = record.error?.code ?? record.reason ?? "";
    return [
      {
        ...base,
        property: "",
        before: "",
        after: "",
        action: failed ? "Failed" : "Skipped",
        why: whyFailed || (record.reason ? plainSkip(record.reason) : ""),
        rule: "",
        code,
      },
    ];
  });
}

export const DIFF_HEADER = ["Record", "Person", "Property", "Before", "After", "Action", "Why", "Rule"] as const;

export const diffCells = (line: DiffLine): string[] => [
  line.recordId,
  line.person,
  line.property,
  line.property !== "" && line.before === "" ? "(empty)" : line.before,
  line.property !== "" && line.after === "" ? "(empty)" : line.after,
  line.action,
  line.why,
  line.rule,
];

/** The report's lines (a header, then every line of every record), for csvBlob: neutralised, UTF-8 with a BOM. */
export const reportLines = (lines: readonly DiffLine[]): string[][] => [
  ["record_index", "record_id", "person", "property", "before", "after", "action", "why", "rule", "code"],
  ...lines.map((line) => [
    String(line.index),
    line.recordId,
    line.person,
    line.property,
    line.before,
    line.after,
    line.action.toLowerCase(),
    line.why,
    line.rule,
    line.code,
  ]),
];

/** What undoing an applied sync would put back, per property written (of the lines shown): a sentence each. */
export const undoPreview = (lines: readonly DiffLine[]): string[] =>
  lines
    .filter((line) => line.action === "Written")
    .map(
      (line) =>
        `Record ${line.recordId}${line.person ? ` (${line.person})` : ""}, ${line.property}: ${line.after} back to ${line.before === "" ? "(empty)" : line.before}`,
    );
