// The page's one door to file handling, over the shared file core (src/file-core/,
// the same reading, mapping and writing as `npm run enrich`): a file in as a table,
// each row as an item, and the enriched file and the failed rows out.
import type { BatchItem } from "../client/src/index";
import type { PersonInput } from "../src/contact-info/person";
import {
  type ColumnMapping,
  CSV_BOM,
  csvLine,
  decideMapping,
  ENCODINGS,
  type Encoding,
  emptyTally,
  FIELD_LABELS,
  type FileKind,
  failedCells,
  NOT_SENT,
  NOT_SENT_STATUS,
  NotASpreadsheetError,
  notSentCells,
  outputCells,
  outputHeader,
  PERSON_FIELDS,
  type PersonField,
  RESULT_FIELDS,
  type ResultCells,
  type RowItem,
  type RowTally,
  readCsvBytes,
  readJsonlText,
  readXlsx,
  resultCells,
  resultColumnNames,
  rowItem,
  SNIFF_BYTES,
  type Sniffed,
  sniffFile,
  type Table,
  tableFromRows,
  tallyRow,
  WINDOWS_1252_NOTICE,
  WorkbookTooLargeError,
  writeXlsx,
} from "../src/file-core/index";

export { ENCODINGS, type Encoding, FIELD_LABELS };

export const FIELDS = PERSON_FIELDS;
export type Field = PersonField;
export type Mapping = ColumnMapping<Field>;
export type { Table };

/** A mistake in the user's file, said so they can fix it. */
export class FileProblem extends Error {}

async function xlsxTable(bytes: Uint8Array<ArrayBuffer>): Promise<Table> {
  let rows: string[][];
  try {
    rows = (await readXlsx(new Blob([bytes]))).rows;
  } catch (error) {
    // A failed import() (the library missing from this build) is a TypeError; a bad workbook is not.
    if (error instanceof TypeError)
      throw new FileProblem("This build of the page cannot read .xlsx files; save the sheet as CSV.");
    if (error instanceof WorkbookTooLargeError)
      throw new FileProblem(`${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`);
    throw new FileProblem(`Cannot read this workbook: ${(error as Error).message}`);
  }
  return tableFromRows(rows);
}

// The core's notice speaks to the command line (--encoding); the page has its own control.
const PAGE_NOTICES: Record<string, string> = {
  [WINDOWS_1252_NOTICE]:
    "Not valid UTF-8, so read as Windows-1252 (what Excel on Windows saves); choose another encoding if the text looks wrong.",
};

/**
 * The file as a table, by what its bytes are (not its name): a workbook, JSON Lines or delimited
 * text, whose encoding is `encoding`, else found from its bytes. Anything else is a FileProblem
 * saying what it is. `kind` tells the page whether an encoding can be chosen.
 */
export async function readTable(file: File, encoding?: Encoding): Promise<Table & { kind: FileKind }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let sniffed: Sniffed;
  try {
    sniffed = sniffFile(bytes.subarray(0, SNIFF_BYTES), file.name);
  } catch (error) {
    throw error instanceof NotASpreadsheetError ? new FileProblem(error.message) : error;
  }
  const table =
    sniffed.kind === "xlsx"
      ? await xlsxTable(bytes)
      : sniffed.kind === "jsonl"
        ? readJsonlText(new TextDecoder().decode(bytes))
        : readCsvBytes(bytes, { encoding: encoding ?? sniffed.encoding });
  table.notices = table.notices.map((notice) => PAGE_NOTICES[notice] ?? notice);
  if (!encoding && sniffed.encoding)
    table.notices.push(`Read as ${sniffed.encoding.toUpperCase()} (no byte order mark).`);
  if (table.header.length === 0 || table.rows.length === 0)
    throw new FileProblem("The file has no rows: give a header row and one row per person.");
  return Object.assign(table, { kind: sniffed.kind });
}

export const guessMapping = (header: readonly string[]): Mapping => decideMapping(header, FIELDS);

/** The mapping with `field` fed by every column named `name` ("" for none). */
export function chooseColumn(header: readonly string[], mapping: Mapping, field: Field, name: string): Mapping {
  const next: Mapping = { ...mapping };
  const indexes = header.flatMap((other, index) => (other === name ? [index] : []));
  if (name === "" || indexes.length === 0) delete next[field];
  else next[field] = indexes;
  return next;
}

export interface Prepared {
  rows: RowItem[];
  /** What is sent: the items of the rows that identify a person, in file order. */
  items: PersonInput[];
  /** For each item sent, its row. */
  sentRows: number[];
}

export function prepare(table: Table, mapping: Mapping): Prepared {
  const rows = table.rows.map((row) => rowItem(row.cells, mapping));
  const sentRows = rows.flatMap((row, index) => ("item" in row ? [index] : []));
  const items = sentRows.map((index) => (rows[index] as { item: PersonInput }).item);
  return { rows, items, sentRows };
}

/** The rows not sent, by why. */
export function countNotSent(rows: readonly RowItem[]): RowTally["notSent"] {
  const tally = emptyTally();
  for (const row of rows) if ("reason" in row) tallyRow(tally, row);
  return tally.notSent;
}

/** An item the API answered, in the order sent. */
export interface Answer {
  batchId: string;
  item: BatchItem;
}

/** Each row's result cells: the API's answer for a row sent, the reason for one that was not. */
export function rowResults({ rows, sentRows }: Prepared, answers: readonly (Answer | undefined)[]): ResultCells[] {
  const sentAt = new Map(sentRows.map((row, position) => [row, position]));
  return rows.map((row, index) => {
    if ("problem" in row) return notSentCells(row);
    const answer = answers[sentAt.get(index)!];
    if (answer) return resultCells(answer.batchId, answer.item, row.warnings);
    return failedCells("no_result", "No result was read for this row: download again.");
  });
}

/** The enriched file's lines: every input cell as read, then the result columns. */
export function enrichedLines(table: Table, results: readonly ResultCells[]): string[][] {
  return [
    outputHeader(table.header, table.width),
    ...table.rows.map((row, i) => outputCells(row.cells, table.width, results[i]!)),
  ];
}

const toFix = (cells: ResultCells | undefined) =>
  cells?.status === "failed" || (cells?.status === NOT_SENT_STATUS && cells.error_code !== NOT_SENT.blank.code);

/** The rows failed or not sent (but not blank), as read, with why: a file to fix and drop in again. */
export function failedLines(table: Table, results: readonly ResultCells[]): string[][] {
  const names = resultColumnNames(table.header);
  const why = (["error_code", "error_message"] as const).map((field) => names[RESULT_FIELDS.indexOf(field)]!);
  const pad = (cells: readonly string[]) => [
    ...cells,
    ...Array<string>(Math.max(0, table.width - cells.length)).fill(""),
  ];
  return [
    [...pad(table.header), ...why],
    ...table.rows.flatMap((row, i) =>
      toFix(results[i]) ? [[...pad(row.cells), results[i]!.error_code, results[i]!.error_message]] : [],
    ),
  ];
}

export const csvBlob = (lines: readonly (readonly string[])[]): Blob =>
  new Blob([CSV_BOM, ...lines.map((cells) => csvLine(cells))], { type: "text/csv;charset=utf-8" });

export async function xlsxBlob(lines: readonly (readonly string[])[]): Promise<Blob> {
  try {
    return await writeXlsx(lines);
  } catch (error) {
    if (error instanceof TypeError)
      throw new FileProblem("This build of the page cannot write .xlsx files; download the CSV.");
    throw error;
  }
}
