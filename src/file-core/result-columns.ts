// The columns the tools add to a user's file. Each is "enriched_" + its name; if
// the input already has a column of that name (in any case), "_2", "_3", … is
// added until it is new, so no reader ever confuses a user's column with ours. Files users hold
// are read by position too: a new field goes last (`reason`, after `warnings`), never between.
import { itemErrorWords, NOT_SENT, type NotSentReason } from "./row-words";

export const RESULT_FIELDS = [
  "batch_id",
  "status",
  "outcome",
  "email",
  "email_status",
  "email_confidence",
  "email_source",
  "phone",
  "phone_type",
  "phone_confidence",
  "phone_source",
  "error_code",
  "error_message",
  "warnings",
  "reason",
] as const;
type ResultField = (typeof RESULT_FIELDS)[number];
export type ResultCells = Record<ResultField, string>;

export const RESULT_PREFIX = "enriched_";

/** The result columns' names for a file with this header, in RESULT_FIELDS order. */
export function resultColumnNames(header: readonly string[]): string[] {
  const taken = new Set(header.map((name) => name.trim().toLowerCase()));
  return RESULT_FIELDS.map((field) => {
    const base = `${RESULT_PREFIX}${field}`;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** What the API answers for one item (the typed client's BatchItem has this shape). */
export interface ItemResult {
  status: string;
  outcome?: string | null;
  reason?: string;
  emails: readonly { address: string; status: string; confidence: number; source: string }[];
  phones: readonly { number: string; type: string; confidence: number; source: string }[];
  error?: { code: string; message: string } | null;
}

const best = <T extends { confidence: number }>(list: readonly T[]): T | undefined =>
  list.reduce<T | undefined>(
    (top, next) => (top === undefined || next.confidence > top.confidence ? next : top),
    undefined,
  );

/** The result cells of an item the API answered: its status, the most confident email and phone, its error. */
export function resultCells(batchId: string, item: ItemResult, warnings: readonly string[] = []): ResultCells {
  const email = best(item.emails);
  const phone = best(item.phones);
  return {
    batch_id: batchId,
    status: item.status,
    outcome: item.outcome ?? "",
    email: email?.address ?? "",
    email_status: email?.status ?? "",
    email_confidence: email ? String(email.confidence) : "",
    email_source: email?.source ?? "",
    phone: phone?.number ?? "",
    phone_type: phone?.type ?? "",
    phone_confidence: phone ? String(phone.confidence) : "",
    phone_source: phone?.source ?? "",
    error_code: item.error?.code ?? "",
    error_message: item.error ? itemErrorWords(item.error) : "",
    warnings: warnings.join(" "),
    reason: item.reason ?? "",
  };
}

/** enriched_status of a row that was never sent (blank, or naming no one): not "failed", as nothing was tried. */
export const NOT_SENT_STATUS = "not_sent";

const emptyCells = (): ResultCells => Object.fromEntries(RESULT_FIELDS.map((field) => [field, ""])) as ResultCells;

/** The result cells of a row not sent: blank, or nothing in it identifies a person (rowItem's why). */
export function notSentCells(row: { problem: string; reason: NotSentReason }): ResultCells {
  return {
    ...emptyCells(),
    status: NOT_SENT_STATUS,
    error_code: NOT_SENT[row.reason].code,
    error_message: row.problem,
  };
}

/** The result cells of a row sent whose answer could not be read. */
export function failedCells(code: string, message: string): ResultCells {
  return { ...emptyCells(), status: "failed", error_code: code, error_message: message };
}
