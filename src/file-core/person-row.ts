// A row as an API item, leniently: an optional identifier that is malformed (an
// email "n/a", a LinkedIn URL that is not a profile) is left out with a warning
// when the rest still identifies the person; a row fails only when nothing does.
import {
  asciiDomain,
  identificationProblem,
  isEmail,
  linkedinSlug,
  PERSON_FIELDS,
  type PersonField,
} from "../contact-info/identifiers";
import type { PersonInput } from "../contact-info/person";
import { type ColumnMapping, fieldValue } from "./mapping";
import { leftOut, NOT_SENT, type NotSentReason, notA } from "./row-words";

export type { PersonField };
export { PERSON_FIELDS };

/** A row sent (its item, and a sentence for each value left out), or not sent (why, in sentences). */
export type RowItem =
  | { item: PersonInput; warnings: string[] }
  | { problem: string; reason: NotSentReason; warnings: string[] };

/** A company's website as its domain: "https://www.acme.example.com/about" is acme.example.com; other text as given. */
export function websiteDomain(value: string): string {
  const text = value.trim();
  if (!/[/:]/.test(text) && !/^www\./i.test(text)) return text;
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  return url ? url.hostname.replace(/^www\./i, "") : text;
}

const CHECKS: Partial<Record<PersonField, { valid: (value: string) => boolean; what: string }>> = {
  email: { valid: isEmail, what: "an email address" },
  linkedinUrl: { valid: (value) => linkedinSlug(value) !== null, what: "a LinkedIn profile URL" },
  companyDomain: { valid: (value) => asciiDomain(value) !== null, what: "a domain name" },
};

/** The item for one row under a mapping; its warnings name each identifier left out and why. */
export function rowItem(cells: readonly string[], mapping: ColumnMapping<PersonField>): RowItem {
  if (cells.every((cell) => cell.trim() === ""))
    return { problem: NOT_SENT.blank.words, reason: "blank", warnings: [] };
  const item: PersonInput = {};
  const warnings: string[] = [];
  const notValid: string[] = [];
  for (const field of PERSON_FIELDS) {
    let value = fieldValue(cells, mapping[field]);
    if (value === "") continue;
    if (field === "companyDomain") value = websiteDomain(value);
    const check = CHECKS[field];
    if (check && !check.valid(value)) {
      warnings.push(leftOut(field, check.what));
      notValid.push(notA(field, check.what));
      continue;
    }
    item[field] = value;
  }
  const problem = identificationProblem(item);
  if (problem === undefined) return { item, warnings };
  // The row is not sent; what was left out is part of why.
  const reason = problem.path.length > 0 ? "noCompany" : "noOne";
  return { problem: [NOT_SENT[reason].words, ...notValid].join(" "), reason, warnings: [] };
}
