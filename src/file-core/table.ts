// A whole file as a table (header, rows, the rows that could not be read), for
// callers that hold the file in memory (the console page, tests), and the layout
// of the output: the input's cells as read, padded to the widest row, then ours.
import { type BadRow, type CsvRow, type Delimiter, isBadRow } from "./csv-reader";
import { type Encoding, NotUtf8Error, WINDOWS_1252_NOTICE } from "./encoding";
import { RESULT_FIELDS, type ResultCells, resultColumnNames } from "./result-columns";
import { TableReader, type TableReadOptions } from "./table-reader";

export interface Table {
  header: string[];
  rows: CsvRow[];
  badRows: BadRow[];
  /** The most cells in any row, header included: cells beyond the header are kept too. */
  width: number;
  encoding?: Encoding;
  delimiter?: Delimiter;
  /** Said to the user when the tool chose for them (an encoding guessed). */
  notices: string[];
}

/** Collects records into a table: the first good record is the header; a bad first record leaves the header empty. */
export class TableBuilder {
  readonly table: Table = { header: [], rows: [], badRows: [], width: 0, notices: [] };
  #headerSeen = false;

  add(records: Iterable<BadRow | CsvRow>): void {
    for (const record of records) {
      if (isBadRow(record)) this.table.badRows.push(record);
      else if (!this.#headerSeen) {
        this.#headerSeen = true;
        this.table.header = record.cells;
      } else this.table.rows.push(record);
      if (!isBadRow(record)) this.table.width = Math.max(this.table.width, record.cells.length);
    }
  }
}

function readWith(bytes: Uint8Array, options: TableReadOptions): Table {
  const reader = new TableReader(options);
  const builder = new TableBuilder();
  builder.add(reader.push(bytes));
  builder.add(reader.end());
  return { ...builder.table, encoding: reader.encoding, delimiter: reader.delimiter };
}

/** A CSV file's bytes as a table; not UTF-8 (and no BOM, no override) is read as Windows-1252, with a notice. */
export function readCsvBytes(bytes: Uint8Array, options: TableReadOptions = {}): Table {
  try {
    return readWith(bytes, options);
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    const table = readWith(bytes, { ...options, encoding: "windows-1252" });
    return { ...table, notices: [WINDOWS_1252_NOTICE] };
  }
}

/**
 * A sheet's rows (from readXlsx) as a table; line numbers are the sheet's row numbers. Blank rows
 * between rows keep their place, as in a CSV; those before the header or after the last row are not rows.
 */
export function tableFromRows(rows: readonly (readonly string[])[]): Table {
  const filled = (cells: readonly string[]) => cells.some((cell) => cell !== "");
  const first = rows.findIndex(filled);
  const last = rows.findLastIndex(filled);
  const builder = new TableBuilder();
  builder.add(rows.slice(Math.max(first, 0), last + 1).map((cells, i) => ({ line: first + i + 1, cells: [...cells] })));
  return builder.table;
}

/** The output's header: the input's names as read, blank names for cells beyond them, then the result columns. */
export const outputHeader = (header: readonly string[], width: number): string[] => [
  ...header,
  ...Array<string>(Math.max(0, width - header.length)).fill(""),
  ...resultColumnNames(header),
];

/** One output row: the input cells as read, padded to the width, then the result cells. */
export const outputCells = (cells: readonly string[], width: number, results: ResultCells): string[] => [
  ...cells,
  ...Array<string>(Math.max(0, width - cells.length)).fill(""),
  ...RESULT_FIELDS.map((field) => results[field]),
];

const cellText = (value: unknown): string =>
  value === null || value === undefined
    ? ""
    : typeof value === "string"
      ? value
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);

/** JSON Lines as a table: every key, in order of first appearance, is a column; a line that is not an object is a bad row. */
export function readJsonlText(text: string): Table {
  const keys = new Map<string, number>();
  const records: { line: number; record: Record<string, unknown> }[] = [];
  const table: Table = { header: [], rows: [], badRows: [], width: 0, notices: [] };
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((line, i) => {
      if (line.trim() === "") return;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        record = undefined;
      }
      if (typeof record !== "object" || record === null || Array.isArray(record)) {
        table.badRows.push({
          line: i + 1,
          problem: 'not a JSON object; each line must be one person, e.g. {"email": "…"}',
        });
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
