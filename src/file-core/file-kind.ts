// What a file is, by its first bytes, not its name: a spreadsheet we read (CSV or
// other delimited text, JSON Lines, an .xlsx workbook) or something else, refused in
// plain words with what to do instead. UTF-16 without a byte order mark is told by
// its NUL bytes (every other byte of Latin text), so it is never read as NUL-filled
// Windows-1252. Shared by the console page and `npm run enrich`, so both agree.
import type { Encoding } from "./encoding";

export type FileKind = "csv" | "xlsx" | "jsonl";

/** Bytes enough to decide: a zip's first entries, a text's first lines. */
export const SNIFF_BYTES = 64 * 1024;

/** The file is not one we read; the message says what it is and what to give instead. */
export class NotASpreadsheetError extends Error {
  override readonly name = "NotASpreadsheetError";
}

const SAVE_AS =
  "save the data as CSV or XLSX (in Excel or Google Sheets: File > Save as / Download) and give that file";

const startsWith = (bytes: Uint8Array, ...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** What other formats people drop by mistake are, by their signature. */
function foreign(bytes: Uint8Array): string | undefined {
  if (ascii(bytes, 0, 5) === "%PDF-") return "a PDF document";
  if (startsWith(bytes, 0x89, 0x50, 0x4e, 0x47)) return "a PNG image";
  if (startsWith(bytes, 0xff, 0xd8, 0xff)) return "a JPEG image";
  if (ascii(bytes, 0, 4) === "GIF8") return "a GIF image";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "a WebP image";
  if (ascii(bytes, 4, 12) === "ftypheic" || ascii(bytes, 4, 12) === "ftypmif1") return "a HEIC image";
  if (startsWith(bytes, 0x49, 0x49, 0x2a, 0x00) || startsWith(bytes, 0x4d, 0x4d, 0x00, 0x2a)) return "a TIFF image";
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0))
    return "an old-style Office file (.xls or .doc); for a sheet, save it as .xlsx";
  if (startsWith(bytes, 0x1f, 0x8b)) return "a gzip archive";
  if (ascii(bytes, 0, 4) === "Rar!" || startsWith(bytes, 0x37, 0x7a, 0xbc, 0xaf)) return "a compressed archive";
  return undefined;
}

/** A zip: an .xlsx workbook when its entries say so, else what it is. */
function zipKind(bytes: Uint8Array): "xlsx" | string {
  const names = ascii(bytes, 0, Math.min(bytes.length, SNIFF_BYTES));
  if (names.includes("xl/")) return "xlsx";
  if (names.includes("word/")) return "a Word document";
  if (names.includes("ppt/")) return "a PowerPoint presentation";
  if (names.includes("content.xml") && names.includes("opendocument.spreadsheet"))
    return "an OpenDocument spreadsheet (.ods); save it as .xlsx";
  return "a zip archive (not an .xlsx workbook); unzip it and give the CSV or XLSX inside";
}

/** UTF-16 without a BOM: most code units of a Latin text have a zero high byte. */
function utf16WithoutBom(bytes: Uint8Array): Encoding | undefined {
  const pairs = Math.floor(Math.min(bytes.length, 4096) / 2);
  if (pairs < 2) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs; i++) {
    if (bytes[2 * i] === 0) evenZeros++;
    if (bytes[2 * i + 1] === 0) oddZeros++;
  }
  const encoding =
    oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05
      ? "utf-16le"
      : evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05
        ? "utf-16be"
        : undefined;
  // Binary data can have zeros in step too: UTF-16 text decodes to few control characters.
  if (!encoding) return undefined;
  const text = new TextDecoder(encoding).decode(bytes.subarray(0, pairs * 2));
  return looksBinary([...text].map((char) => Math.min(char.codePointAt(0)!, 0xff))) ? undefined : encoding;
}

const hasBom = (bytes: Uint8Array) =>
  startsWith(bytes, 0xef, 0xbb, 0xbf) || startsWith(bytes, 0xff, 0xfe) || startsWith(bytes, 0xfe, 0xff);

/** Text has no NULs and few control characters besides tab, CR, LF (and form feed, Ctrl-Z at the end). */
function looksBinary(bytes: ArrayLike<number>): boolean {
  const sample = Array.from({ length: Math.min(bytes.length, 4096) }, (_, i) => bytes[i]!);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1a) control++;
  }
  return control > sample.length * 0.02;
}

export interface Sniffed {
  kind: FileKind;
  /** For text in UTF-16 without a BOM: the encoding to read it with. */
  encoding?: Encoding;
}

/**
 * What the file is, from its first bytes (SNIFF_BYTES are enough) and, for text, its name
 * (.jsonl / .ndjson, else delimited text). Throws NotASpreadsheetError for anything else.
 */
export function sniffFile(head: Uint8Array, name: string): Sniffed {
  const refuse = (what: string) => new NotASpreadsheetError(`${name} is ${what}, not a spreadsheet: ${SAVE_AS}.`);
  if (head.length === 0) throw new NotASpreadsheetError(`${name} is empty: give a header row and one row per person.`);
  const other = foreign(head);
  if (other) throw refuse(other);
  if (startsWith(head, 0x50, 0x4b, 0x03, 0x04)) {
    const zip = zipKind(head);
    if (zip === "xlsx") return { kind: "xlsx" };
    throw refuse(zip);
  }
  const jsonl = /\.(jsonl|ndjson)$/i.test(name);
  if (hasBom(head)) return { kind: jsonl ? "jsonl" : "csv" };
  const encoding = utf16WithoutBom(head);
  if (encoding) return { kind: jsonl ? "jsonl" : "csv", encoding };
  if (looksBinary(head)) throw refuse("binary data (not text)");
  return { kind: jsonl ? "jsonl" : "csv" };
}
