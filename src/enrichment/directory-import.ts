// Turns an operator's file (CSV, XLSX or JSONL, read by the file core) into
// DIRECTORY entries. Pure: the import command (scripts/directory.ts) reads the
// file and writes the result. Columns that name no directory field are ignored
// (and listed); a CRM export imports as it is.

import { firstAndLast, splitName } from "../contact-info/names";
import { asciiDomain, asciiEmail, linkedinSlug } from "../contact-info/person";
import { toE164 } from "../contact-info/phone";
import {
  decideMapping,
  fieldValue,
  isBadRow,
  isBlankRow,
  matchColumn,
  parseCsvText,
  type Table,
  TableBuilder,
  websiteDomain,
} from "../file-core/index";
import {
  DIRECTORY_EMAIL_STATUSES,
  type DirectoryEmailStatus,
  type DirectoryEntry,
  directoryKey,
  entryKeys,
  type LearnedPattern,
} from "./directory";
import { detectPattern, dominantPattern, type EmailPattern } from "./email-patterns";

export const DIRECTORY_COLUMNS = [
  "firstName",
  "lastName",
  "fullName",
  "companyName",
  "companyDomain",
  "linkedinUrl",
  "workEmail",
  "personalEmail",
  "emailStatus",
  "mobilePhone",
  "workPhone",
] as const;

const isEmailStatus = (value: string): value is DirectoryEmailStatus =>
  (DIRECTORY_EMAIL_STATUSES as readonly string[]).includes(value);

export interface Rejection {
  line: number;
  reason: string;
}

export interface ParsedFile {
  rows: { line: number; record: Record<string, unknown> }[];
  rejected: Rejection[];
  /** Column names (or JSONL keys) that name no directory field, in order of first appearance. */
  ignored: string[];
}

/** The directory rows of a table (from the file core): each mapped field's first non-empty cell. */
export function directoryRecords(table: Table): ParsedFile {
  const rejected = table.badRows.map(({ line, problem }) => ({ line, reason: problem }));
  const mapping = decideMapping(table.header, DIRECTORY_COLUMNS);
  const used = new Set(Object.values(mapping).flat());
  const ignored = [
    ...new Set(table.header.filter((_, index) => !used.has(index)).map((name) => name.trim() || "(blank)")),
  ];
  if (Object.keys(mapping).length === 0)
    return {
      rows: [],
      ignored,
      rejected: [
        ...rejected,
        {
          line: 1,
          reason: `no column names a directory field; give some of ${DIRECTORY_COLUMNS.join(", ")} (or a CRM export's names)`,
        },
      ],
    };
  const rows = table.rows.map(({ line, cells }) => ({
    line,
    record: Object.fromEntries(
      Object.entries(mapping).flatMap(([field, indexes]) => {
        const value = fieldValue(cells, indexes as number[]);
        return value === "" ? [] : [[field, value]];
      }),
    ),
  }));
  return { rows, rejected, ignored };
}

export function parseDirectoryFile(text: string, format: "csv" | "jsonl"): ParsedFile {
  if (format === "csv") {
    const builder = new TableBuilder();
    // A directory holds people, not a sheet's layout: blank rows are nothing to import.
    builder.add(parseCsvText(text).filter((record) => !isBlankRow(record)));
    if (builder.table.header.length === 0 && !parseCsvText(text).some(isBadRow))
      return { rows: [], rejected: [{ line: 1, reason: "the file is empty" }], ignored: [] };
    return directoryRecords(builder.table);
  }
  const rejected: Rejection[] = [];
  const ignored = new Set<string>();
  const rows: ParsedFile["rows"] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === "") return;
    let record: unknown;
    try {
      record = JSON.parse(raw);
    } catch {
      record = undefined;
    }
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      rejected.push({ line: i + 1, reason: "not a JSON object" });
      return;
    }
    // Keys get the CSV header's aliases; the first key that names a field wins, as in a CSV.
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      const field = matchColumn(key, DIRECTORY_COLUMNS);
      if (field === undefined) ignored.add(key);
      else if (!(field in fields) || fields[field] === "" || fields[field] === null) fields[field] = value;
    }
    rows.push({ line: i + 1, record: fields });
  });
  return { rows, rejected, ignored: [...ignored] };
}

/**
 * A valid, normalized entry, or the reason the row cannot be one. Leniently: a
 * malformed optional value (a phone not in international form, an email "n/a")
 * is left out and named in `warnings`; the row fails only when what is left
 * cannot be an entry.
 */
export function toDirectoryEntry(record: Record<string, unknown>, warnings: string[] = []): DirectoryEntry | string {
  const unknown = Object.keys(record).filter((name) => !(DIRECTORY_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) return `unknown field(s) ${unknown.join(", ")}`;
  const field: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== "string") return `${name} must be a string`;
    if (value.trim() !== "") field[name] = value.trim().replace(/\s+/g, " ");
  }
  const dropped: string[] = [];

  const entry: DirectoryEntry = { emails: [], phones: [] };
  if (field.firstName) entry.firstName = field.firstName;
  if (field.lastName) entry.lastName = field.lastName;
  if (!entry.firstName && !entry.lastName && field.fullName) {
    const { first, last } = splitName(field.fullName);
    if (last) [entry.firstName, entry.lastName] = [first, last];
  }
  if (field.companyName) entry.companyName = field.companyName;
  if (field.companyDomain) {
    const domain = asciiDomain(websiteDomain(field.companyDomain));
    if (domain) entry.companyDomain = domain;
    else dropped.push("companyDomain is not a domain name");
  }
  if (field.linkedinUrl) {
    const slug = linkedinSlug(field.linkedinUrl);
    if (slug) entry.linkedinSlug = slug;
    else dropped.push("linkedinUrl is not a LinkedIn profile URL");
  }
  let status: DirectoryEmailStatus = "unknown";
  if (field.emailStatus !== undefined) {
    const given = field.emailStatus.toLowerCase();
    if (isEmailStatus(given)) status = given;
    else dropped.push(`emailStatus must be one of ${DIRECTORY_EMAIL_STATUSES.join(", ")}`);
  }
  for (const [column, type] of [
    ["workEmail", "work"],
    ["personalEmail", "personal"],
  ] as const) {
    if (field[column] === undefined) continue;
    const address = asciiEmail(field[column].toLowerCase());
    if (address) entry.emails.push({ address, type, status });
    else dropped.push(`${column} is not an email address`);
  }
  for (const [column, type] of [
    ["mobilePhone", "mobile"],
    ["workPhone", "landline"],
  ] as const) {
    if (field[column] === undefined) continue;
    const number = toE164(field[column]);
    if (number) entry.phones.push({ number, type });
    else dropped.push(`${column} is not a phone number in international form (+<country code> …)`);
  }
  // A work address tells the company domain when the row does not.
  const work = entry.emails.find((email) => email.type === "work");
  if (!entry.companyDomain && work) entry.companyDomain = work.address.split("@")[1]!;

  const problem =
    entry.emails.length + entry.phones.length === 0
      ? "no contact data: give workEmail, personalEmail, mobilePhone or workPhone"
      : entryKeys(entry).length === 0
        ? "nothing to find the person by: give linkedinUrl, an email, or a name with companyDomain"
        : undefined;
  if (problem) return [problem, ...dropped].join("; ");
  warnings.push(...dropped.map((reason) => `${reason}; left out`));
  return entry;
}

/** Per domain, the address pattern most of its entries' work emails follow. */
export function learnPatterns(entries: readonly DirectoryEntry[]): Map<string, LearnedPattern> {
  const byDomain = new Map<string, EmailPattern[]>();
  for (const entry of entries) {
    const name = firstAndLast(entry);
    if (!name) continue;
    for (const email of entry.emails) {
      if (email.type !== "work") continue;
      const [local, domain] = email.address.split("@") as [string, string];
      const pattern = detectPattern(name.first, name.last, local);
      if (pattern) byDomain.set(domain, [...(byDomain.get(domain) ?? []), pattern]);
    }
  }
  const learned = new Map<string, LearnedPattern>();
  for (const [domain, patterns] of byDomain) {
    const best = dominantPattern(patterns);
    if (best) learned.set(domain, best);
  }
  return learned;
}

/** The KV writes for an import: each entry under each of its lookup keys, then the learned patterns. */
export function directoryWrites(entries: readonly DirectoryEntry[]): { key: string; value: string }[] {
  const writes = entries.flatMap((entry) => entryKeys(entry).map((key) => ({ key, value: JSON.stringify(entry) })));
  for (const [domain, pattern] of learnPatterns(entries))
    writes.push({ key: directoryKey.pattern(domain), value: JSON.stringify(pattern) });
  return writes;
}
