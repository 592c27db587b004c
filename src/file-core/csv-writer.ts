// CSV that spreadsheets open safely: UTF-8 with a BOM (so Excel reads "Renée"),
// CRLF, RFC 4180 quoting, and every cell that a spreadsheet would evaluate as a
// formula neutralised as OWASP's CSV-injection guidance says: a leading "'".
// https://owasp.org/www-community/attacks/CSV_Injection
// Only those: a CSV goes back into a CRM, which keeps the "'", so a phone written
// '+15125550153 would be corrupted there. Plain numbers are numbers to every
// spreadsheet, never formulas.

export const CSV_BOM = "\uFEFF";

// Excel, Google Sheets and LibreOffice Calc start a formula at =, @, + or -; a leading
// tab or CR is dropped by some of them before the rest is read, so those too.
const FORMULA_START = /^[=@\t\r]/;
// "+" or "-" and then a plain number (an E.164 phone, a signed decimal, 1e5), or alone: a
// value, not a formula, in all three. Anything else after the sign ("-2+3", "+cmd|…",
// "+1 512 555", "- item") is parsed as a formula.
const SIGNED_NUMBER = /^[+-](?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)?$/;

/** True when Excel, Google Sheets or LibreOffice would evaluate the cell as a formula. */
export const isFormula = (value: string): boolean =>
  FORMULA_START.test(value) || (/^[+-]/.test(value) && !SIGNED_NUMBER.test(value));

/** The cell as written: "'" in front of one a spreadsheet would evaluate; every other cell as it is. */
export const neutraliseCell = (value: string): string => (isFormula(value) ? `'${value}` : value);

/**
 * The cell as it was before neutraliseCell, for reading our own output back. A user's own cell that
 * starts with "'" and then a formula ("'=1+1") is written as it is, so it reads back without its "'".
 */
export const restoreCell = (value: string): string =>
  value.startsWith("'") && isFormula(value.slice(1)) ? value.slice(1) : value;

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
