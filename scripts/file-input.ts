// Node's side of the file core: files read from disk, in chunks for CSV so a
// file of any size is read in bounded memory, whole for XLSX (a zip) and JSONL.
import { closeSync, createReadStream, openSync, readSync } from "node:fs";
import {
  type CsvRecord,
  DELIMITERS,
  type Delimiter,
  ENCODINGS,
  type Encoding,
  NotASpreadsheetError,
  NotUtf8Error,
  parseEncoding,
  readJsonlText,
  readXlsx,
  SNIFF_BYTES,
  type Sniffed,
  sniffFile,
  type Table,
  TableReader,
  tableFromRows,
  WorkbookTooLargeError,
  XlsxError,
} from "../src/file-core/index";
import { CliError, cannotRead, readFileBytes, usageError } from "./cli";

export type InputKind = Sniffed["kind"];

/**
 * What the file is by its first bytes (the file core's rule, as the console page's): a PDF, an
 * image, a zip other than .xlsx or binary data is refused in one line; UTF-16 without a BOM is found.
 */
export function sniffInput(path: string): Sniffed {
  let head: Uint8Array;
  try {
    const fd = openSync(path, "r");
    try {
      head = new Uint8Array(SNIFF_BYTES);
      head = head.subarray(0, readSync(fd, head, 0, SNIFF_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw cannotRead(path, error);
  }
  try {
    return sniffFile(head, path);
  } catch (error) {
    throw error instanceof NotASpreadsheetError ? new CliError(error.message) : error;
  }
}

export function encodingFlag(value: string | undefined): Encoding | undefined {
  if (value === undefined) return undefined;
  const encoding = parseEncoding(value);
  if (!encoding) throw usageError(`--encoding is one of ${ENCODINGS.join(", ")}, not ${value}`);
  return encoding;
}

const DELIMITER_NAMES: Record<string, Delimiter> = {
  ",": ",",
  comma: ",",
  ";": ";",
  semicolon: ";",
  "\t": "\t",
  "\\t": "\t",
  tab: "\t",
};

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
export async function* csvRecords(
  path: string,
  options: CsvPassOptions,
  seen: { delimiter?: Delimiter } = {},
): AsyncGenerator<CsvRecord> {
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
    const read = await readXlsx(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      sheet,
    );
    return tableFromRows(read.rows);
  } catch (error) {
    if (error instanceof WorkbookTooLargeError) throw new CliError(`${path}: ${error.message}`);
    if (error instanceof XlsxError) throw new CliError(`${path}: ${error.message}; pass --sheet NAME`);
    throw new CliError(
      `${path} is not an .xlsx workbook this tool can read (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** A JSONL file as a table (see readJsonlText). */
export const jsonlTable = (path: string): Table => readJsonlText(new TextDecoder().decode(readFileBytes(path)));
