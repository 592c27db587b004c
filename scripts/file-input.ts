// Node's side of the file core: files read from disk, in chunks for CSV so a
// file of any size is read in bounded memory, whole for XLSX (a zip) and JSONL.
import { createReadStream } from "node:fs";
import {
  type CsvRecord,
  DELIMITERS,
  type Delimiter,
  ENCODINGS,
  type Encoding,
  NotUtf8Error,
  parseEncoding,
  readXlsx,
  type Table,
  TableReader,
  tableFromRows,
  XlsxError,
} from "../src/file-core";
import { CliError, cannotRead, readFileBytes, usageError } from "./cli";

export type InputKind = "csv" | "xlsx" | "jsonl";

export const inputKind = (path: string): InputKind | undefined =>
  /\.(csv|tsv|txt)$/i.test(path) ? "csv" : /\.xlsx$/i.test(path) ? "xlsx" : /\.(jsonl|ndjson)$/i.test(path) ? "jsonl" : undefined;

export function encodingFlag(value: string | undefined): Encoding | undefined {
  if (value === undefined) return undefined;
  const encoding = parseEncoding(value);
  if (!encoding) throw usageError(`--encoding is one of ${ENCODINGS.join(", ")}, not ${value}`);
  return encoding;
}

const DELIMITER_NAMES: Record<string, Delimiter> = { ",": ",", comma: ",", ";": ";", semicolon: ";", "\t": "\t", "\\t": "\t", tab: "\t" };

export function delimiterFlag(value: string | undefined): Delimiter | undefined {
  if (value === undefined) return undefined;
  const delimiter = DELIMITER_NAMES[value.toLowerCase()];
  if (!delimiter || !DELIMITERS.includes(delimiter))
    throw usageError(`--delimiter is comma, semicolon or tab, not ${JSON.stringify(value)}`);
  return delimiter;
}

export interface CsvPassOptions {
  encoding?: Encoding;
  delimiter?: Delimiter;
}

/** One pass over a CSV file's records, 64 KiB at a time; `seen` learns the delimiter sniffed. */
export async function* csvRecords(path: string, options: CsvPassOptions, seen: { delimiter?: Delimiter } = {}): AsyncGenerator<CsvRecord> {
  const reader = new TableReader(options);
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 })) {
      const records = reader.push(chunk as Buffer);
      seen.delimiter ??= reader.delimiter;
      yield* records;
    }
  } catch (error) {
    throw error instanceof NotUtf8Error ? error : cannotRead(path, error);
  }
  const records = reader.end();
  seen.delimiter ??= reader.delimiter;
  yield* records;
}

/** An .xlsx file's sheet as a table. */
export async function xlsxTable(path: string, sheet: string | undefined): Promise<Table> {
  const bytes = readFileBytes(path);
  try {
    const read = await readXlsx(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, sheet);
    return tableFromRows(read.rows);
  } catch (error) {
    if (error instanceof XlsxError) throw new CliError(`${path}: ${error.message}; pass --sheet NAME`);
    throw new CliError(`${path} is not an .xlsx workbook this tool can read (${error instanceof Error ? error.message : String(error)})`);
  }
}

const cellText = (value: unknown): string =>
  value === null || value === undefined
    ? ""
    : typeof value === "string"
      ? value
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);

/** A JSONL file as a table: the keys in order of first appearance are the header. */
export function jsonlTable(path: string): Table {
  const text = new TextDecoder().decode(readFileBytes(path));
  const keys = new Map<string, number>();
  const records: { line: number; record: Record<string, unknown> }[] = [];
  const table: Table = { header: [], rows: [], badRows: [], width: 0, notices: [] };
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      record = undefined;
    }
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      table.badRows.push({ line: i + 1, problem: 'not a JSON object; each line must be one person, e.g. {"email": "…"}' });
      return;
    }
    for (const key of Object.keys(record)) if (!keys.has(key)) keys.set(key, keys.size);
    records.push({ line: i + 1, record: record as Record<string, unknown> });
  });
  table.header = [...keys.keys()];
  table.width = table.header.length;
  table.rows = records.map(({ line, record }) => ({ line, cells: table.header.map((key) => cellText(record[key])) }));
  return table;
}
