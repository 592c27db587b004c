// The enrich command's passes over the input, each streaming: validate (decide
// the mapping, count, find bad rows, hash) before anything is sent; send (one
// batch per BATCH_ITEMS valid rows, enrich-send.ts); write (input cells as read, then results,
// item by item as the API pages them). Memory stays bounded for a CSV of any size.
import { createHash } from "node:crypto";
import type { SubmitItem } from "../client/src/index";
import {
  type BadRow,
  type ColumnMapping,
  type CsvRecord,
  type Delimiter,
  decideMapping,
  type Encoding,
  emptyTally,
  isBadRow,
  MappingError,
  type MappingOverride,
  NotUtf8Error,
  PERSON_FIELDS,
  type PersonField,
  type RowTally,
  rowItem,
  type Table,
  tallyRow,
  WINDOWS_1252_NOTICE,
} from "../src/file-core/index";
import { CliError, usageError } from "./cli";
import { type CsvPassOptions, csvRecords, type InputKind, jsonlTable, xlsxTable } from "./file-input";

/** Where the records come from: a CSV read again on every pass, or a table held whole (XLSX, JSONL). */
export interface Source {
  kind: InputKind;
  records(): AsyncIterable<CsvRecord>;
  /** Said to the user before anything is sent (an encoding chosen for them). */
  notices: string[];
  /** A CSV's encoding: the override, or Windows-1252 once validate finds the file is not UTF-8. */
  encoding?: Encoding;
  /** A CSV's delimiter, once read: the output uses it too (Excel in much of Europe expects ";"). */
  delimiter?: Delimiter;
}

export async function openSource(
  path: string,
  kind: InputKind,
  options: CsvPassOptions & { sheet?: string },
): Promise<Source> {
  if (kind === "csv") {
    const source: Source = {
      kind,
      notices: [],
      encoding: options.encoding,
      records: () => csvRecords(path, { encoding: source.encoding, delimiter: options.delimiter }, source),
    };
    return source;
  }
  const table: Table = kind === "xlsx" ? await xlsxTable(path, options.sheet) : jsonlTable(path);
  return {
    kind,
    notices: table.notices,
    async *records() {
      yield { line: 1, cells: table.header };
      yield* table.badRows;
      yield* table.rows;
    },
  };
}

export interface Checked {
  header: string[];
  width: number;
  mapping: ColumnMapping<PersonField>;
  rows: number;
  valid: number;
  /** The rows not sent, by why (blank rows among them). */
  notSent: RowTally["notSent"];
  warned: number;
  badRows: BadRow[];
  /** SHA-256 of JSON.stringify(the items sent), as the console page hashes them: the batches' keys (batchKey). */
  itemsHash: string;
}

async function validateOnce(source: Source, overrides: readonly MappingOverride[]): Promise<Checked> {
  // JSON.stringify(items), hashed as it is written: "[", the items joined by ",", "]".
  const hash = createHash("sha256").update("[");
  const tally = emptyTally();
  const checked: Checked = {
    header: [],
    width: 0,
    mapping: {},
    rows: 0,
    valid: 0,
    notSent: tally.notSent,
    warned: 0,
    badRows: [],
    itemsHash: "",
  };
  let headerSeen = false;
  for await (const record of source.records()) {
    if (isBadRow(record)) {
      checked.badRows.push(record);
      continue;
    }
    checked.width = Math.max(checked.width, record.cells.length);
    if (!headerSeen) {
      headerSeen = true;
      checked.header = record.cells;
      try {
        checked.mapping = decideMapping(record.cells, PERSON_FIELDS, overrides);
      } catch (error) {
        throw error instanceof MappingError ? usageError(error.message) : error;
      }
      continue;
    }
    checked.rows++;
    const row = rowItem(record.cells, checked.mapping);
    if ("problem" in row) tallyRow(tally, row);
    else hash.update(`${checked.valid++ > 0 ? "," : ""}${JSON.stringify(row.item)}`);
    if (row.warnings.length > 0) checked.warned++;
  }
  if (!headerSeen) throw new CliError("the file is empty; give a header row and one row per person");
  checked.itemsHash = hash.update("]").digest("hex");
  return checked;
}

/** Pass 1. A CSV that is not UTF-8 (no BOM, no --encoding) is read again as Windows-1252, and the user told. */
export async function validate(source: Source, overrides: readonly MappingOverride[]): Promise<Checked> {
  try {
    return await validateOnce(source, overrides);
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    source.encoding = "windows-1252";
    source.notices.push(WINDOWS_1252_NOTICE);
    return validateOnce(source, overrides);
  }
}

/** Pass 2's unit: consecutive valid rows' items, sent as one batch. */
export async function* itemChunks(
  source: Source,
  mapping: ColumnMapping<PersonField>,
  size: number,
): AsyncGenerator<SubmitItem[]> {
  let chunk: SubmitItem[] = [];
  let header = true;
  for await (const record of source.records()) {
    if (isBadRow(record)) continue;
    if (header) {
      header = false;
      continue;
    }
    const row = rowItem(record.cells, mapping);
    if ("problem" in row) continue;
    chunk.push(row.item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
