// The sentences a person reads about their rows: on the console page, in the enriched file's
// enriched_error_message and enriched_warnings (console and CLI), and in the CLI's summary. One
// source, so the page and the file never say the same thing two ways; the codes beside them
// (enriched_error_code) are the machine-readable part and stay as they are.

import type { PersonField } from "../contact-info/identifiers";
import type { ItemErrorCode } from "../contact-info/item-errors";

/** The API's fields as a sales-ops person names them. */
export const FIELD_LABELS = {
  email: "Email",
  linkedinUrl: "LinkedIn URL",
  firstName: "First name",
  lastName: "Last name",
  fullName: "Full name",
  companyName: "Company name",
  companyDomain: "Company website",
  externalId: "Your record ID",
} as const satisfies Record<PersonField, string>;

/** Why a row was not sent: its code (enriched_error_code) and its sentence. */
export const NOT_SENT = {
  blank: { code: "blank_row", words: "The row is empty: nothing to send." },
  noCompany: { code: "invalid_input", words: "It has a name but no company: add the company name or website." },
  noOne: {
    code: "invalid_input",
    words: "Nothing in it identifies a person: it needs an email, a LinkedIn URL, or a name with a company.",
  },
} as const satisfies Record<string, { code: ItemErrorCode | "blank_row"; words: string }>;
export type NotSentReason = keyof typeof NOT_SENT;

/** A cell that is not what its column is for: "The Email cell is not an email address." */
export const notA = (field: PersonField, what: string): string => `The ${FIELD_LABELS[field]} cell is not ${what}.`;

/** The same cell left out of a row that is sent anyway. */
export const leftOut = (field: PersonField, what: string): string =>
  `The ${FIELD_LABELS[field]} cell is not ${what}: sent without it.`;

/** Why the API could not enrich an item, by its code, as the page would say it. */
// invalid_input is not here: the API's message names the field, which says more.
export const ITEM_ERROR_WORDS: Partial<Record<ItemErrorCode, string>> = {
  processing_failed: "It could not be enriched: every attempt failed on our side. Send it again.",
  processing_timeout: "It was not enriched before the batch's deadline. Send it again.",
  source_unavailable: "Nothing was found while a data source could not answer: send it again later.",
  budget_exhausted: "Its result would have passed the batch's credit cap, so it was not delivered nor charged.",
  suppressed: "This person is on your do-not-enrich list: nobody was asked, nothing was charged.",
  erased: "This person's data was erased at your request before the row was enriched.",
};

/** The sentence for an item's error: ours for a code we know, else the API's message. */
export const itemErrorWords = (error: { code: string; message: string }): string =>
  Object.entries(ITEM_ERROR_WORDS).find(([code]) => code === error.code)?.[1] ?? error.message;

/** Why rows were not sent, in a few words each, for a count: "32 with a name but no company". */
const NOT_SENT_SHORT: Record<NotSentReason, string> = {
  noCompany: "with a name but no company",
  noOne: "naming no one",
  blank: "blank",
};

/** A run's rows by what became of them: the console's categories, the CLI's too. */
export interface RowTally {
  found: number;
  notFound: number;
  failed: number;
  suppressed: number;
  notSent: Partial<Record<NotSentReason, number>>;
}

export const emptyTally = (): RowTally => ({ found: 0, notFound: 0, failed: 0, suppressed: 0, notSent: {} });

/** What became of one row, counted: an item the API answered, or a row not sent and why. */
export function tallyRow(
  tally: RowTally,
  row: { reason: NotSentReason } | { status: string; outcome?: string | null; error?: { code: string } | null },
): void {
  if ("reason" in row) tally.notSent[row.reason] = (tally.notSent[row.reason] ?? 0) + 1;
  else if (row.status === "failed" && row.error?.code === "suppressed") tally.suppressed++;
  else if (row.status === "failed") tally.failed++;
  else if (row.outcome === "found") tally.found++;
  else tally.notFound++;
}

export const notSentTotal = (tally: RowTally): number =>
  Object.values(tally.notSent).reduce((sum, n) => sum + (n ?? 0), 0);

/** "32 with a name but no company, 6 blank": why rows were not sent, most common first. */
export const notSentWhy = (tally: RowTally, num: (n: number) => string = String): string =>
  Object.entries(NOT_SENT_SHORT)
    .map(([reason, words]) => [tally.notSent[reason as NotSentReason] ?? 0, words] as const)
    .filter(([n]) => n > 0)
    .sort(([a], [b]) => b - a)
    .map(([n, words]) => `${num(n)} ${words}`)
    .join(", ");

/** "120 found, 140 not found, 2 failed, 38 not sent (32 with a name but no company, 6 blank)". */
export function tallyLine(tally: RowTally, num: (n: number) => string = String): string {
  const parts = [`${num(tally.found)} found`, `${num(tally.notFound)} not found`, `${num(tally.failed)} failed`];
  if (tally.suppressed > 0) parts.push(`${num(tally.suppressed)} suppressed`);
  const notSent = notSentTotal(tally);
  if (notSent > 0) parts.push(`${num(notSent)} not sent (${notSentWhy(tally, num)})`);
  return parts.join(", ");
}

const WHEN = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** A repeat run of the same rows within the reuse window, said as such. */
export const alreadyEnriched = (createdAt: string, credits: number): string =>
  `Already enriched on ${WHEN.format(new Date(createdAt))} UTC, 0 new credits (that run charged ${credits}).`;
