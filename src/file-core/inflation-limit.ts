// The limit on what a workbook may unpack to, apart from the check (zip-inflation.ts, loaded with
// the XLSX library on first use), so the pages and tools that only name it do not load fflate.

/** The most the parts a workbook reader unpacks (its XML) may inflate to, together: 64 MiB. */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

export class WorkbookTooLargeError extends Error {
  override readonly name = "WorkbookTooLargeError";
  constructor() {
    super(
      `the workbook would unpack to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MB (the most read here); save the sheet as CSV, or split it`,
    );
  }
}
