// Numbers and counts as a person reads them: "5,000 rows", "1 duplicate", "2 min".
const NUMBER = new Intl.NumberFormat("en");

export const num = (n: number): string => NUMBER.format(n);

/** "1 row", "5,000 rows"; `many` for irregular plurals. */
export const count = (n: number, one: string, many = `${one}s`): string => `${num(n)} ${n === 1 ? one : many}`;

export const duration = (seconds: number): string =>
  seconds < 60
    ? `${seconds} s`
    : seconds < 3600
      ? `${Math.round(seconds / 60)} min`
      : `${(seconds / 3600).toFixed(1)} h`;

/** What …/estimate answered, as a sentence: "Estimate: at most 44 credits for 5 rows (1 duplicate, free); …". */
export function estimateLine(
  estimate: {
    maxCredits: number;
    validItems: number;
    duplicateItems: number;
    cachedItems: number;
    remainingCredits?: number | null;
  },
  noun: string,
): string {
  const cached = estimate.cachedItems > 0 ? `, ${num(estimate.cachedItems)} already in your cache (free)` : "";
  const duplicates =
    estimate.duplicateItems > 0
      ? ` (${count(estimate.duplicateItems, "duplicate")}, free${cached})`
      : cached
        ? ` (${cached.slice(2)})`
        : "";
  const total = `at most ${count(estimate.maxCredits, "credit")} for ${count(estimate.validItems, noun)}`;
  return `Estimate: ${total}${duplicates}; you pay only for what is found.${budgetWords(estimate)}`;
}

/** What remains of the month's budget (GET …/me/budget), said before spending; nothing without a budget. */
function budgetWords({ maxCredits, remainingCredits }: { maxCredits: number; remainingCredits?: number | null }) {
  if (remainingCredits === undefined || remainingCredits === null) return "";
  const left = `${count(remainingCredits, "credit")} of this month's budget remain`;
  return maxCredits > remainingCredits
    ? ` Only ${left}: the batch would be refused; send fewer rows or raise the budget.`
    : ` ${left}.`;
}

/** The write-back rules (issue 37), as a sales-ops person chooses between them. */
export const RULE_WORDS = {
  fill_empty: {
    label: "Fill empty only",
    help: "Writes only into an empty property: a value already in your CRM is never replaced. The safest choice.",
  },
  overwrite: {
    label: "Overwrite",
    help: "Replaces what your CRM holds with what was found (never with a blank).",
  },
  skip_if_edited_by_user: {
    label: "Overwrite unless a person edited it",
    help: "Replaces the value unless its latest change was made by a person in the CRM, so hand-corrected values stay.",
  },
} as const;

const SKIP_WORDS: Record<string, string> = {
  changed_since_preview: "Changed in the CRM since the preview: left as it is",
  changed_since_apply: "Changed in the CRM since the write: left as it is",
  not_empty: "The CRM already has a value (fill empty only)",
  edited_by_user: "A person edited it in the CRM",
  same_value: "The CRM holds this value already",
  nothing_found: "Nothing verified was found for this person",
  no_match_key: "Nothing to find the record by (no record ID or email)",
  record_not_found: "No such record in the CRM",
  duplicate_record: "More than one CRM record matches: none is written",
  suppressed: "This person is on the do-not-enrich list",
  erased: "This person's data was erased",
};

/** Why a change is skipped (or failed), as a sentence: the API's code in words, else the code itself. */
export const plainSkip = (code: string): string =>
  SKIP_WORDS[code] ?? `${code.charAt(0).toUpperCase()}${code.slice(1).replaceAll("_", " ")}`;

/** The API's rate-limit types as what a person does: "Starting batches: 50 a minute". */
export const LIMIT_NAMES: Record<string, string> = {
  contact_info_request: "Starting batches",
  contact_info_status: "Reading batches and results",
  rate_limits: "Reading your account",
  mcp_protocol: "Assistant requests",
};

/** "50 a minute", "10 every 5 s". */
export function perWindow(limit: number, windowSeconds: number): string {
  const per: Record<number, string> = { 1: "a second", 60: "a minute", 3600: "an hour", 86400: "a day" };
  return `${num(limit)} ${per[windowSeconds] ?? `every ${duration(windowSeconds)}`}`;
}
