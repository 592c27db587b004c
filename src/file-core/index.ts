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
// columns named by resultColumnNames), csvLine (neutralised, quoted, CRLF) after
// CSV_BOM, writeXlsx.
export { FIELD_ALIASES } from "./aliases";
export {
  type BadRow,
  type CsvRecord,
  type CsvRow,
  CsvTokenizer,
  DELIMITERS,
  type Delimiter,
  isBadRow,
  parseCsvText,
  sniffDelimiter,
} from "./csv-reader";
export { CSV_BOM, csvLine, neutraliseCell, restoreCell } from "./csv-writer";
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
  type ItemResult,
  invalidRowCells,
  RESULT_FIELDS,
  RESULT_PREFIX,
  type ResultCells,
  resultCells,
  resultColumnNames,
} from "./result-columns";
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
