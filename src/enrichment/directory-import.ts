// Turns an operator's CSV or JSONL file into DIRECTORY entries. Pure: the
// import command (scripts/directory.ts) reads the file and writes the result.
import { matchColumn, matchColumns } from "../contact-info/columns";
import { asciiDomain, asciiEmail, linkedinSlug } from "../contact-info/person";
import { toE164 } from "../contact-info/phone";
import {
  DIRECTORY_EMAIL_STATUSES,
  type DirectoryEmailStatus,
  type DirectoryEntry,
  directoryKey,
  entryKeys,
  type LearnedPattern,
} from "./directory";
import { detectPattern, dominantPattern, type EmailPattern } from "./email-patterns";
import { firstAndLast, splitName } from "./names";

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

const isEmailStatus = (value: string): value is DirectoryEmailStatus => (DIRECTORY_EMAIL_STATUSES as readonly string[]).includes(value);

export interface Rejection {
  line: number;
  reason: string;
}

export interface ParsedFile {
  rows: { line: number; record: Record<string, unknown> }[];
  rejected: Rejection[];
}

/** RFC 4180 CSV: quoted fields, doubled quotes, commas and newlines inside quotes, CRLF or LF. */
export function parseCsv(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        cell += char;
      }
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      cells.push(cell);
      if (cells.some((value) => value !== "")) rows.push({ line: rowLine, cells });
      cells = [];
      cell = "";
      rowLine = ++line;
    } else cell += char;
  }
  cells.push(cell);
  if (cells.some((value) => value !== "")) rows.push({ line: rowLine, cells });
  return rows;
}

export function parseDirectoryFile(text: string, format: "csv" | "jsonl"): ParsedFile {
  const rejected: Rejection[] = [];
  if (format === "jsonl") {
    const rows: ParsedFile["rows"] = [];
    text.split(/\r?\n/).forEach((raw, i) => {
      if (raw.trim() === "") return;
      try {
        const record = JSON.parse(raw);
        if (typeof record !== "object" || record === null || Array.isArray(record)) throw new Error();
        // Keys get the CSV header's aliases; one that matches nothing stays, for toDirectoryEntry to name.
        rows.push({
          line: i + 1,
          record: Object.fromEntries(Object.entries(record).map(([key, value]) => [matchColumn(key, DIRECTORY_COLUMNS) ?? key, value])),
        });
      } catch {
        rejected.push({ line: i + 1, reason: "not a JSON object" });
      }
    });
    return { rows, rejected };
  }
  const [header, ...body] = parseCsv(text);
  if (!header) return { rows: [], rejected: [{ line: 1, reason: "the file is empty" }] };
  const matched = matchColumns(header.cells, DIRECTORY_COLUMNS);
  if ("problem" in matched) return { rows: [], rejected: [{ line: 1, reason: matched.problem }] };
  const rows = body.map(({ line, cells }) => ({
    line,
    record: Object.fromEntries(matched.columns.map((name, i) => [name, cells[i] ?? ""])),
  }));
  return { rows, rejected };
}

/** A valid, normalized entry, or the reason the row cannot be one. */
export function toDirectoryEntry(record: Record<string, unknown>): DirectoryEntry | string {
  const unknown = Object.keys(record).filter((name) => !(DIRECTORY_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) return `unknown field(s) ${unknown.join(", ")}`;
  const field: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== "string") return `${name} must be a string`;
    if (value.trim() !== "") field[name] = value.trim().replace(/\s+/g, " ");
  }

  const entry: DirectoryEntry = { emails: [], phones: [] };
  if (field.firstName) entry.firstName = field.firstName;
  if (field.lastName) entry.lastName = field.lastName;
  if (!entry.firstName && !entry.lastName && field.fullName) {
    const { first, last } = splitName(field.fullName);
    if (last) [entry.firstName, entry.lastName] = [first, last];
  }
  if (field.companyName) entry.companyName = field.companyName;
  if (field.companyDomain) {
    const domain = asciiDomain(field.companyDomain);
    if (!domain) return "companyDomain is not a domain name";
    entry.companyDomain = domain;
  }
  if (field.linkedinUrl) {
    const slug = linkedinSlug(field.linkedinUrl);
    if (!slug) return "linkedinUrl is not a LinkedIn profile URL";
    entry.linkedinSlug = slug;
  }
  const status = field.emailStatus ?? "unknown";
  if (!isEmailStatus(status)) return `emailStatus must be one of ${DIRECTORY_EMAIL_STATUSES.join(", ")}`;
  for (const [column, type] of [
    ["workEmail", "work"],
    ["personalEmail", "personal"],
  ] as const) {
    if (field[column] === undefined) continue;
    const address = asciiEmail(field[column].toLowerCase());
    if (!address) return `${column} is not an email address`;
    entry.emails.push({ address, type, status });
  }
  for (const [column, type] of [
    ["mobilePhone", "mobile"],
    ["workPhone", "landline"],
  ] as const) {
    if (field[column] === undefined) continue;
    const number = toE164(field[column]);
    if (!number) return `${column} is not a phone number in international form (+<country code> …)`;
    entry.phones.push({ number, type });
  }
  // A work address tells the company domain when the row does not.
  const work = entry.emails.find((email) => email.type === "work");
  if (!entry.companyDomain && work) entry.companyDomain = work.address.split("@")[1]!;

  if (entry.emails.length + entry.phones.length === 0) return "no contact data: give workEmail, personalEmail, mobilePhone or workPhone";
  if (entryKeys(entry).length === 0) return "nothing to find the person by: give linkedinUrl, an email, or a name with companyDomain";
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
