// .xlsx in and out, with read-excel-file and write-excel-file (their "universal"
// builds run in Node and in browsers). Loaded on first use, so a page that never
// sees a spreadsheet never downloads them. A workbook is read whole (the format
// is a zip); Excel's own limit is 1,048,576 rows. Before it is unpacked, what it would
// inflate to is checked against MAX_INFLATED_BYTES (zip-inflation.ts): a small file can
// hold a part that inflates to gigabytes.

export interface Sheet {
  /** Each row's cells as text, numbers as Excel shows them, dates as YYYY-MM-DD (with the time when not midnight). */
  rows: string[][];
  sheet: string;
}

const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.replace(".000Z", "Z");
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
};

/**
 * The named sheet, or the first; an unknown name is an error that lists the sheets there are, and a
 * workbook that would unpack past MAX_INFLATED_BYTES a WorkbookTooLargeError, before it is unpacked.
 */
export async function readXlsx(input: ArrayBuffer | Blob, sheet?: string): Promise<Sheet> {
  const bytes = input instanceof Blob ? await input.arrayBuffer() : input;
  const [{ default: readExcelFile }, { checkInflation }] = await Promise.all([
    import("read-excel-file/universal"),
    import("./zip-inflation"),
  ]);
  checkInflation(new Uint8Array(bytes));
  const sheets = await readExcelFile(bytes, { trim: false, parseNumber: (text: string) => text });
  const chosen = sheet === undefined ? sheets[0] : sheets.find((candidate) => candidate.sheet === sheet);
  if (!chosen)
    throw new XlsxError(
      sheet === undefined
        ? "the workbook has no sheet"
        : `the workbook has no sheet "${sheet}"; its sheets are ${sheets.map((candidate) => `"${candidate.sheet}"`).join(", ")}`,
    );
  return { sheet: chosen.sheet, rows: chosen.data.map((row) => row.map(cellText)) };
}

/** A workbook of one sheet, every cell a text cell (nothing is evaluated, so nothing needs neutralising). */
export async function writeXlsx(rows: readonly (readonly string[])[], sheet = "Enriched"): Promise<Blob> {
  const { default: writeExcelFile } = await import("write-excel-file/universal");
  const data = rows.map((row) => row.map((value) => ({ value, type: String })));
  return writeExcelFile(data, { sheet }).toBlob();
}

export class XlsxError extends Error {
  override readonly name = "XlsxError";
}
