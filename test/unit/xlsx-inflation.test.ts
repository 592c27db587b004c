import { describe, expect, it } from "vitest";
import { FileProblem, readTable } from "../../console/file-adapter";
import { MAX_INFLATED_BYTES, readXlsx, WorkbookTooLargeError, writeXlsx } from "../../src/file-core/index";
import { checkInflation } from "../../src/file-core/zip-inflation";
import { xlsxBomb } from "../zip-bomb";

// Files that inflate are capped (issue 46, item 10): a workbook whose parts would unpack past
// MAX_INFLATED_BYTES (64 MB) is refused before the XLSX library unpacks it.

const limitMB = MAX_INFLATED_BYTES / 1024 / 1024;
const buffer = (bytes: Uint8Array) => bytes.slice().buffer;

describe("a workbook that would inflate past the limit", () => {
  it("states a limit of at most 64 MB", () => {
    expect(limitMB).toBeLessThanOrEqual(64);
  });

  it("is refused, in plain words, when it is a 1 MB file inflating to 1 GB", async () => {
    const bomb = xlsxBomb(1024);
    expect(bomb.length).toBeLessThan(1.1 * 1024 * 1024);
    const refusal = readXlsx(buffer(bomb));
    await expect(refusal).rejects.toBeInstanceOf(WorkbookTooLargeError);
    await expect(refusal).rejects.toThrow(`the workbook would unpack to more than ${limitMB} MB`);
  });

  it("is refused from the sizes its zip directory declares, before anything is inflated", () => {
    // One real megabyte that says it is a gigabyte: only the directory can have refused it.
    expect(() => checkInflation(xlsxBomb(1, 1024))).toThrow(WorkbookTooLargeError);
  });

  it("is refused when its directory lies, by counting what it really inflates to", async () => {
    // A gigabyte that says it is one megabyte.
    await expect(readXlsx(buffer(xlsxBomb(1024, 1)))).rejects.toBeInstanceOf(WorkbookTooLargeError);
  });

  it("is refused when it passes the limit by a megabyte, and not just under it", () => {
    expect(() => checkInflation(xlsxBomb(limitMB + 1, 1))).toThrow(WorkbookTooLargeError);
    expect(() => checkInflation(xlsxBomb(limitMB - 1))).not.toThrow();
  });
});

describe("the console page", () => {
  it("says so in plain words", async () => {
    const file = new File([buffer(xlsxBomb(1024))], "bomb.xlsx");
    const refusal = readTable(file);
    await expect(refusal).rejects.toBeInstanceOf(FileProblem);
    await expect(refusal).rejects.toThrow(
      `The workbook would unpack to more than ${limitMB} MB (the most read here); save the sheet as CSV, or split it.`,
    );
  });
});

describe("a workbook within the limit", () => {
  it("is read as before", async () => {
    const rows = [
      ["First Name", "Company"],
      ["Ada", "Analytical"],
    ];
    const book = new Uint8Array(await (await writeXlsx(rows)).arrayBuffer());
    expect(() => checkInflation(book)).not.toThrow();
    expect((await readXlsx(buffer(book))).rows).toEqual(rows);
  });
});
