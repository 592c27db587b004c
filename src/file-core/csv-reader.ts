// RFC 4180 rows from text that arrives in chunks, each row with the line it
// starts on. A malformed row (a quote never closed, text after a closing quote)
// is reported, and reading resumes on the line after the one it started on, so
// one bad quote costs one row, not the rest of the file.

export const DELIMITERS = [",", ";", "\t"] as const;
export type Delimiter = (typeof DELIMITERS)[number];

export interface CsvRow {
  /** The 1-based line the row starts on. */
  line: number;
  cells: string[];
}

export interface BadRow {
  line: number;
  problem: string;
}

export type CsvRecord = CsvRow | BadRow;

export const isBadRow = (record: CsvRecord): record is BadRow => "problem" in record;

// Excel keeps at most 32,767 characters in a cell; a row still open after this much text is an unclosed quote.
const MAX_ROW_CHARS = 1 << 20;

/** The delimiter the header line uses most (outside quotes): comma, semicolon or tab; comma when none. */
export function sniffDelimiter(text: string): Delimiter {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: Delimiter = ",";
  for (const delimiter of DELIMITERS) if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

type Scan = { row: string[]; end: number } | { problem: string } | "incomplete";

const lineBreakAt = (text: string, i: number): number => (text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1);

function countBreaks(text: string, from: number, to: number): number {
  let breaks = 0;
  for (let i = from; i < to; i++) {
    if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) breaks++;
  }
  return breaks;
}

/** One record from `start`; "incomplete" when more text could change it. */
function scanRecord(text: string, start: number, delimiter: string, final: boolean): Scan {
  const cells: string[] = [];
  let i = start;
  for (;;) {
    let cell: string;
    if (text[i] === '"') {
      cell = "";
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1 || (quote === text.length - 1 && !final)) {
          if (!final && text.length - start < MAX_ROW_CHARS) return "incomplete";
          if (quote === -1) return { problem: `a quote opened in column ${cells.length + 1} is never closed` };
        }
        cell += text.slice(from, quote);
        if (text[quote + 1] === '"') {
          cell += '"';
          from = quote + 2;
          continue;
        }
        i = quote + 1;
        break;
      }
      if (i < text.length && text[i] !== delimiter && text[i] !== "\n" && text[i] !== "\r")
        return { problem: `text follows the closing quote in column ${cells.length + 1}` };
    } else {
      let end = i;
      while (end < text.length && text[end] !== delimiter && text[end] !== "\n" && text[end] !== "\r") end++;
      cell = text.slice(i, end);
      i = end;
    }
    cells.push(cell);
    if (i >= text.length) return final ? { row: cells, end: i } : "incomplete";
    if (text[i] === delimiter) {
      i++;
      continue;
    }
    if (text[i] === "\r" && i === text.length - 1 && !final) return "incomplete";
    return { row: cells, end: i + lineBreakAt(text, i) };
  }
}

/** A row with no text in any cell (an empty line, or only delimiters). */
export const isBlankRow = (record: CsvRecord): record is CsvRow =>
  !isBadRow(record) && record.cells.every((cell) => cell === "");

/**
 * Push text, get the records complete so far; end() gives the rest. A blank row between rows is a row
 * (a user pastes the output beside the sheet, so every row keeps its place); blank lines before the
 * first row or after the last are not rows of the table, so they are left out.
 */
export class CsvTokenizer {
  #buffer = "";
  #line = 1;
  #started = false;
  /** Blank rows not yet known to be followed by a row. */
  #blanks: CsvRow[] = [];

  constructor(readonly delimiter: Delimiter) {}

  push(text: string): CsvRecord[] {
    this.#buffer += text;
    return this.#drain(false);
  }

  end(): CsvRecord[] {
    return this.#drain(true);
  }

  #drain(final: boolean): CsvRecord[] {
    const records: CsvRecord[] = [];
    const text = this.#buffer;
    let start = 0;
    while (start < text.length) {
      const scan = scanRecord(text, start, this.delimiter, final);
      if (scan === "incomplete") break;
      if ("problem" in scan) {
        // Resume on the next line: the row's own first line is what is lost.
        this.#keep(records, { line: this.#line, problem: scan.problem });
        let next = start;
        while (next < text.length && text[next] !== "\n" && text[next] !== "\r") next++;
        if (!final && next >= text.length - 1) break;
        next = Math.min(text.length, next + lineBreakAt(text, next));
        this.#line += 1;
        start = next;
        continue;
      }
      this.#keep(records, { line: this.#line, cells: scan.row });
      this.#line += countBreaks(text, start, scan.end);
      start = scan.end;
    }
    this.#buffer = text.slice(start);
    return records;
  }

  #keep(records: CsvRecord[], record: CsvRecord): void {
    if (isBlankRow(record)) {
      if (this.#started) this.#blanks.push(record);
      return;
    }
    this.#started = true;
    records.push(...this.#blanks, record);
    this.#blanks = [];
  }
}

/** Every record of a whole text (tests, previews, small files). */
export function parseCsvText(text: string, delimiter: Delimiter = sniffDelimiter(text)): CsvRecord[] {
  const tokenizer = new CsvTokenizer(delimiter);
  return [...tokenizer.push(text), ...tokenizer.end()];
}
