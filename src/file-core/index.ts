// The file core: what every tool that reads a user's spreadsheet shares (the
// enrich command, the console page, the directory import). It runs unchanged in
// Node and in browsers: bytes in, bytes out, no file system and no streams; the
// callers bring the bytes (in chunks for big files: TableReader).
//
// Reading: sniffFile (what a file is by its bytes: refuses PDFs, images, other
// zips and binary in plain words; finds UTF-16 without a BOM), decodeBytes / ByteDecoder (BOM, UTF-8, else Windows-1252 with a notice;
// an override), sniffDelimiter / CsvTokenizer (rows with line numbers, bad rows
// reported), readCsvBytes (a whole file), readXlsx (a sheet, loaded on demand; a
// workbook that would unpack past MAX_INFLATED_BYTES is a WorkbookTooLargeError),
// readJsonlText (JSON Lines, keys as columns).
// Mapping: decideMapping (aliases in FIELD_ALIASES, then "field=Column"
// overrides), describeMapping (printed before anything is sent), rowItem (a row
// as an API item, leniently, with warnings).
// Writing: outputHeader / outputCells (input cells as read, then the result
// columns named by resultColumnNames), csvLine (only what a spreadsheet would run
// neutralised, quoted, CRLF) after CSV_BOM, writeXlsx.
// Words and counts: row-words.ts, the sentences the console shows and the files carry
// (why a row was not sent, an item's error), and the categories both doors count by
// (tallyRow, tallyLine). batchKey: a file's batches' Idempotency-Keys, the same from both.
export { FIELD_ALIASES } from "./aliases";
export { BATCH_ITEMS, batchKey } from "./batch-keys";
export {
  type BadRow,
  type CsvRecord,
  type CsvRow,
  CsvTokenizer,
  DELIMITERS,
  type Delimiter,
  isBadRow,
  isBlankRow,
  parseCsvText,
  sniffDelimiter,
} from "./csv-reader";
export { CSV_BOM, csvLine, isFormula, neutraliseCell, restoreCell } from "./csv-writer";
export {
  ByteDecoder,
  decodeBytes,
  ENCODINGS,
  type Encoding,
  NotUtf8Error,
  parseEncoding,
  WINDOWS_1252_NOTICE,
} from "./encoding";
export { type FileKind, NotASpreadsheetError, SNIFF_BYTES, type Sniffed, sniffFile } from "./file-kind";
export { MAX_INFLATED_BYTES, WorkbookTooLargeError } from "./inflation-limit";
export {
  type ColumnMapping,
  decideMapping,
  describeMapping,
  fieldValue,
  MappingError,
  type MappingOverride,
  matchColumn,
  parseOverride,
} from "./mapping";
export { PERSON_FIELDS, type PersonField, type RowItem, rowItem, websiteDomain } from "./person-row";
export {
  failedCells,
  type ItemResult,
  NOT_SENT_STATUS,
  notSentCells,
  RESULT_FIELDS,
  RESULT_PREFIX,
  type ResultCells,
  resultCells,
  resultColumnNames,
} from "./result-columns";
export {
  alreadyEnriched,
  emptyTally,
  FIELD_LABELS,
  ITEM_ERROR_WORDS,
  itemErrorWords,
  NOT_SENT,
  type NotSentReason,
  notSentTotal,
  notSentWhy,
  type RowTally,
  tallyLine,
  tallyRow,
} from "./row-words";
export {
  outputCells,
  outputHeader,
  readCsvBytes,
  readJsonlText,
  type Table,
  TableBuilder,
  tableFromRows,
} from "./table";
export { TableReader, type TableReadOptions } from "./table-reader";
export { readXlsx, type Sheet, writeXlsx, XlsxError } from "./xlsx";
