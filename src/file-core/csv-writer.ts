// CSV that spreadsheets open safely: UTF-8 with a BOM (so Excel reads "Renée"),
// CRLF, RFC 4180 quoting, and every cell that a spreadsheet would take for a
// formula neutralised as OWASP's CSV-injection guidance says: a leading "'".
// https://owasp.org/www-community/attacks/CSV_Injection

export const CSV_BOM = "\uFEFF";

// =, +, -, @, tab and CR start a formula in Excel, Sheets or LibreOffice. A cell
// already starting with "'" gets one more, so restoreCell can undo it exactly.
const FORMULA_START = /^[=+\-@\t\r']/;

/** The cell as written: "'" in front of one a spreadsheet would evaluate ("+1 201…" stays readable text). */
export const neutraliseCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

/** The cell as it was before neutraliseCell (for reading our own output back). */
export const restoreCell = (value: string): string =>
  value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;

/** One line: each cell neutralised, quoted when it holds the delimiter, a quote or a line break; CRLF at the end. */
export function csvLine(cells: readonly string[], delimiter = ","): string {
  const special = new RegExp(`["\\r\\n${delimiter === "\t" ? "\\t" : delimiter}]`);
  return `${cells
    .map((cell) => {
      const safe = neutraliseCell(cell);
      return special.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
    })
    .join(delimiter)}\r\n`;
}
