// The enrich command's files: a CSV or JSONL of people in, one CSV row per input
// row out. Pure, so tests can call it without a server.
import type { BatchItem, SubmitItem } from "../client/src/index";
import { matchColumn } from "../src/contact-info/columns";
import { PERSON_FIELDS } from "../src/contact-info/person";
import { parseCsv } from "../src/enrichment/directory-import";
import { CliError } from "./cli";

/** What an item can say, in the order the API lists it. */
const ITEM_FIELDS = PERSON_FIELDS satisfies readonly (keyof SubmitItem)[];

export const RESULT_COLUMNS = [
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
] as const;

export interface InputFile {
  /** The input's columns, in order (for JSONL, every key in order of first appearance). */
  columns: string[];
  /** Each row's values by column, as read. */
  rows: Record<string, string>[];
  /** Each row as an item for the API. */
  items: SubmitItem[];
  /** The input began with a UTF-8 byte order mark (kept on the output, for spreadsheet programs). */
  bom: boolean;
}

export const inputFormat = (path: string): "csv" | "jsonl" | undefined =>
  /\.csv$/i.test(path) ? "csv" : /\.(jsonl|ndjson)$/i.test(path) ? "jsonl" : undefined;

/** A company's website as its domain: "https://www.acme.com/about" is acme.com. */
function companyDomain(value: string): string {
  if (!/[/:]/.test(value) && !/^www\./i.test(value)) return value;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`).hostname.replace(/^www\./i, "");
  } catch {
    return value; // The API names what is wrong with it, on the row.
  }
}

/** The item for a row: each known column by its own name or a CRM alias (the first such column wins), blank cells left out. */
function toItem(row: Record<string, string>, columns: readonly string[]): SubmitItem {
  const item: SubmitItem = {};
  for (const column of columns) {
    const field = matchColumn(column, ITEM_FIELDS);
    const value = row[column]?.trim() ?? "";
    if (field === undefined || value === "" || item[field] !== undefined) continue;
    item[field] = field === "companyDomain" ? companyDomain(value) : value;
  }
  return item;
}

const cellText = (value: unknown): string =>
  value === null || value === undefined
    ? ""
    : typeof value === "string"
      ? value
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);

export function parseInput(text: string, format: "csv" | "jsonl"): InputFile {
  const bom = text.startsWith("\uFEFF");
  const body = bom ? text.slice(1) : text;
  let columns: string[];
  let rows: Record<string, string>[];
  if (format === "csv") {
    const [header, ...lines] = parseCsv(body);
    if (!header) throw new CliError("the file is empty; give a header row and one row per person");
    columns = header.cells;
    rows = lines.map(({ cells }) => Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ""])));
  } else {
    const seen = new Set<string>();
    rows = [];
    body.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === "") return;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        record = undefined;
      }
      if (typeof record !== "object" || record === null || Array.isArray(record))
        throw new CliError(`line ${i + 1} is not a JSON object; each line must be one person, e.g. {"email": "…"}`);
      for (const key of Object.keys(record)) seen.add(key);
      rows.push(Object.fromEntries(Object.entries(record).map(([key, value]) => [key, cellText(value)])));
    });
    columns = [...seen];
  }
  if (rows.length === 0) throw new CliError("the file has no rows; give one row per person");
  if (!columns.some((column) => matchColumn(column, ITEM_FIELDS) !== undefined)) {
    throw new CliError(
      `no column names a person; give some of ${ITEM_FIELDS.join(", ")} (or a CRM export's names: "First Name", "Company", "Email", "LinkedIn URL", …)`,
    );
  }
  return { columns, rows, items: rows.map((row) => toItem(row, columns)), bom };
}

const best = <T extends { confidence: number }>(list: readonly T[]): T | undefined =>
  list.reduce<T | undefined>((top, next) => (top === undefined || next.confidence > top.confidence ? next : top), undefined);

/** The result columns for one item: its status, the most confident email and phone, and its error. */
export function resultCells(batchId: string, item: BatchItem): Record<(typeof RESULT_COLUMNS)[number], string> {
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
    error_message: item.error?.message ?? "",
  };
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled; lines end in CRLF. */
const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
export const csvLine = (values: readonly string[]): string => `${values.map(csvField).join(",")}\r\n`;
