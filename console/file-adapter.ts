// The page's only door to file handling: reading a file into columns and rows,
// mapping columns to API fields, and writing the enriched file. A stand-in until
// the shared file core (src/file-core/) is merged; then this module delegates to it.
import type { BatchItem, SubmitItem } from "../client/src/index";
import { matchColumn } from "../src/contact-info/columns";

export const FIELDS = [
  "externalId",
  "firstName",
  "lastName",
  "fullName",
  "companyName",
  "companyDomain",
  "linkedinUrl",
  "email",
] as const satisfies readonly (keyof SubmitItem)[];
export type Field = (typeof FIELDS)[number];

export interface Sheet {
  /** Header names in order, repeated and empty ones included. */
  columns: string[];
  /** Cells by column position; a row may be longer than the header. */
  rows: string[][];
  /** What the reader decided that the user should know (an encoding guessed, …). */
  notes: string[];
}

/** Each field's column name; every column of that name feeds it, the first non-empty cell winning. */
export type Mapping = Partial<Record<Field, string>>;

export class FileProblem extends Error {}

function decode(bytes: Uint8Array, notes: string[]): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    notes.push("Not valid UTF-8: read as Windows-1252 (Excel on Windows).");
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function sniffDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [",", ";", "\t"].map((d) => [d, firstLine.split(d).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let quoteLine = 0;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === "\n") line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === "") {
      quoted = true;
      quoteLine = line;
    } else if (ch === delimiter) endCell();
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endCell();
      rows.push(row);
      row = [];
      line++;
    } else cell += ch;
  }
  if (quoted) throw new FileProblem(`Line ${quoteLine}: a quote is never closed; fix the file and choose it again.`);
  if (cell !== "" || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows.filter((cells) => cells.some((c) => c !== ""));
}

function parseJsonl(text: string): string[][] {
  const records = text
    .split(/\r?\n/)
    .map((line, i) => [line, i + 1] as const)
    .filter(([line]) => line.trim() !== "")
    .map(([line, number]) => {
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {}
      throw new FileProblem(`Line ${number} is not a JSON object.`);
    });
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
  const text_ = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v));
  return [columns, ...records.map((record) => columns.map((column) => text_(record[column])))];
}

export async function readSheet(file: File): Promise<Sheet> {
  const notes: string[] = [];
  if (/\.xlsx$/i.test(file.name)) throw new FileProblem("XLSX files need the shared file core, which this build does not have yet.");
  const text = decode(new Uint8Array(await file.arrayBuffer()), notes);
  const table = /\.(jsonl|ndjson)$/i.test(file.name) ? parseJsonl(text) : parseCsv(text, sniffDelimiter(text));
  const [columns, ...rows] = table;
  if (!columns || rows.length === 0) throw new FileProblem("The file has no rows: give a header row and one row per person.");
  return { columns, rows, notes };
}

export function guessMapping(columns: readonly string[]): Mapping {
  const mapping: Mapping = {};
  for (const column of columns) {
    const field = matchColumn(column, FIELDS);
    if (field !== undefined && mapping[field] === undefined) mapping[field] = column;
  }
  return mapping;
}

function companyDomain(value: string): string {
  if (!/[/:]/.test(value) && !/^www\./i.test(value)) return value;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`).hostname.replace(/^www\./i, "");
  } catch {
    return value;
  }
}

export function toItem(columns: readonly string[], row: readonly string[], mapping: Mapping): SubmitItem {
  const item: SubmitItem = {};
  for (const field of FIELDS) {
    const name = mapping[field];
    if (name === undefined) continue;
    const value = columns.map((column, i) => (column === name ? (row[i] ?? "").trim() : "")).find((cell) => cell !== "");
    if (value !== undefined) item[field] = field === "companyDomain" ? companyDomain(value) : value;
  }
  return item;
}

/** Why the API would refuse the item, or undefined when it identifies a person. */
export function whyInvalid(item: SubmitItem): string | undefined {
  const named = (item.firstName && item.lastName) || item.fullName;
  if (item.linkedinUrl || item.email || (named && (item.companyDomain || item.companyName))) return undefined;
  return named ? "a name needs a company (domain or name)" : "nothing identifies the person (LinkedIn URL, email, or name + company)";
}

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

const best = <T extends { confidence: number }>(list: readonly T[]): T | undefined =>
  list.reduce<T | undefined>((top, next) => (top === undefined || next.confidence > top.confidence ? next : top), undefined);

export function resultCells(batchId: string, item: BatchItem): string[] {
  const email = best(item.emails);
  const phone = best(item.phones);
  return [
    batchId,
    item.status,
    item.outcome ?? "",
    email?.address ?? "",
    email?.status ?? "",
    email ? String(email.confidence) : "",
    email?.source ?? "",
    phone?.number ?? "",
    phone?.type ?? "",
    phone ? String(phone.confidence) : "",
    phone?.source ?? "",
    item.error?.code ?? "",
    item.error?.message ?? "",
  ];
}

const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The input's cells as read (every column, repeated and extra ones too), then `extra` columns, as UTF-8 CSV with a BOM. */
export function writeCsv(
  sheet: Sheet,
  extra: { columns: readonly string[]; cells: readonly (readonly string[] | undefined)[] },
  onlyRows?: readonly number[],
): Blob {
  const width = Math.max(sheet.columns.length, ...sheet.rows.map((row) => row.length));
  const pad = (cells: readonly string[]) => Array.from({ length: width }, (_, i) => cells[i] ?? "");
  const line = (cells: readonly string[]) => `${cells.map(csvField).join(",")}\r\n`;
  const rows = onlyRows ?? sheet.rows.map((_, i) => i);
  const lines = [
    line([...pad(sheet.columns), ...extra.columns]),
    ...rows.map((i) => line([...pad(sheet.rows[i]!), ...(extra.cells[i] ?? [])])),
  ];
  return new Blob(["\uFEFF", ...lines], { type: "text/csv;charset=utf-8" });
}

export async function writeXlsx(_sheet: Sheet, _results: readonly (readonly string[])[]): Promise<Blob> {
  throw new FileProblem("XLSX output needs the shared file core, which this build does not have yet.");
}
