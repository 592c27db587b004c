import { describe, expect, it } from "vitest";
import { NotASpreadsheetError, readCsvBytes, sniffFile } from "../../src/file-core/index";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? [...new TextEncoder().encode(part)] : part)));
const utf16 = (text: string, endian: "le" | "be") =>
  new Uint8Array(
    [...text].flatMap((char) =>
      endian === "le"
        ? [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8]
        : [char.charCodeAt(0) >> 8, char.charCodeAt(0) & 0xff],
    ),
  );
const refusal = (head: Uint8Array, name: string) => {
  try {
    sniffFile(head, name);
  } catch (error) {
    expect(error).toBeInstanceOf(NotASpreadsheetError);
    return (error as Error).message;
  }
  throw new Error("not refused");
};

describe("what a file is, by its bytes", () => {
  it("refuses a PDF, even named .csv, in plain words with what to do", () => {
    const message = refusal(bytes("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj"), "contacts.csv");
    expect(message).toBe(
      "contacts.csv is a PDF document, not a spreadsheet: save the data as CSV or XLSX (in Excel or Google Sheets: File > Save as / Download) and give that file.",
    );
  });

  it("refuses images, old Office files and archives", () => {
    expect(refusal(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "a.csv")).toContain("a PNG image");
    expect(refusal(bytes([0xff, 0xd8, 0xff, 0xe0]), "a.xlsx")).toContain("a JPEG image");
    expect(refusal(bytes("GIF89a"), "a.csv")).toContain("a GIF image");
    expect(refusal(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1]), "a.xls")).toContain("old-style Office file");
    expect(refusal(bytes([0x1f, 0x8b, 8, 0]), "a.csv")).toContain("a gzip archive");
  });

  it("takes a zip for a workbook only when it holds one", () => {
    expect(sniffFile(bytes("PK", [3, 4], "....[Content_Types].xml....xl/workbook.xml"), "export.csv")).toEqual({
      kind: "xlsx",
    });
    expect(refusal(bytes("PK", [3, 4], "....word/document.xml"), "a.xlsx")).toContain("a Word document");
    expect(refusal(bytes("PK", [3, 4], "....contacts.csv"), "contacts.zip")).toContain(
      "a zip archive (not an .xlsx workbook); unzip it",
    );
  });

  it("refuses binary data and an empty file", () => {
    expect(refusal(bytes("abc", [0, 1, 2, 3, 0x9c, 0, 0xff, 7, 8, 0x10, 0x11, 0x12]), "dump.csv")).toContain(
      "binary data (not text)",
    );
    expect(refusal(new Uint8Array(0), "empty.csv")).toBe(
      "empty.csv is empty: give a header row and one row per person.",
    );
  });

  it("finds UTF-16 without a byte order mark, either order, and reads it without NULs", () => {
    const text = "First Name,Last Name,Email\r\nJosé,Müller,jose@example.com\r\n";
    for (const endian of ["le", "be"] as const) {
      const sniffed = sniffFile(utf16(text, endian), "export.csv");
      expect(sniffed).toEqual({ kind: "csv", encoding: `utf-16${endian}` });
      const table = readCsvBytes(utf16(text, endian), { encoding: sniffed.encoding });
      expect(table.header).toEqual(["First Name", "Last Name", "Email"]);
      expect(table.rows[0]!.cells).toEqual(["José", "Müller", "jose@example.com"]);
    }
  });

  it("reads text as text: CSV with or without a BOM, Windows-1252, and JSON Lines by name", () => {
    expect(sniffFile(bytes("Email\r\nada@example.com\r\n"), "a.txt")).toEqual({ kind: "csv" });
    expect(sniffFile(bytes([0xef, 0xbb, 0xbf], "Email\r\n"), "a.csv")).toEqual({ kind: "csv" });
    expect(sniffFile(bytes([0xff, 0xfe], "E\0m\0"), "a.csv")).toEqual({ kind: "csv" });
    expect(sniffFile(bytes("Name\r\nJos", [0xe9], "\r\n"), "a.csv")).toEqual({ kind: "csv" });
    expect(sniffFile(bytes('{"email":"ada@example.com"}\n'), "people.jsonl")).toEqual({ kind: "jsonl" });
  });
});
