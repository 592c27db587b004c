import { describe, expect, it } from "vitest";
import {
  ByteDecoder,
  decodeBytes,
  isBadRow,
  NotUtf8Error,
  parseCsvText,
  readCsvBytes,
  readJsonlText,
  sniffDelimiter,
  TableReader,
  tableFromRows,
} from "../../src/file-core/index";

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Windows-1252 bytes of Latin-1 text (what Excel on Windows saves). */
const cp1252 = (text: string) => Uint8Array.from([...text].map((char) => (char === "€" ? 0x80 : char.charCodeAt(0))));
const utf16 = (text: string, order: "le" | "be") => {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set(order === "le" ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const [a, b] = order === "le" ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff];
    bytes.set([a, b], 2 + i * 2);
  }
  return bytes;
};

describe("decoding a file's bytes", () => {
  const text = "First Name,Company\r\nJosé,Müller & Söhne €\r\n";

  it("reads UTF-8 with and without a BOM", () => {
    expect(decodeBytes(utf8(text))).toEqual({ text, encoding: "utf-8" });
    expect(decodeBytes(utf8(`\uFEFF${text}`))).toEqual({ text, encoding: "utf-8" });
  });

  it("reads UTF-16 LE and BE by their BOM", () => {
    expect(decodeBytes(utf16(text, "le"))).toEqual({ text, encoding: "utf-16le" });
    expect(decodeBytes(utf16(text, "be"))).toEqual({ text, encoding: "utf-16be" });
  });

  it("reads invalid UTF-8 as Windows-1252 and says so, never a replacement character", () => {
    const decoded = decodeBytes(cp1252(text));
    expect(decoded.text).toBe(text);
    expect(decoded.text).not.toContain("\uFFFD");
    expect(decoded.encoding).toBe("windows-1252");
    expect(decoded.notice).toMatch(/not valid UTF-8; read it as Windows-1252/);
  });

  it("follows an override", () => {
    expect(decodeBytes(utf8("Müller"), { encoding: "windows-1252" }).text).toBe("MÃ¼ller");
  });

  it("decodes characters split across chunks, and throws NotUtf8Error at the first invalid byte", () => {
    const bytes = utf8("ab€cd");
    const decoder = new ByteDecoder();
    const parts = [bytes.subarray(0, 3), bytes.subarray(3, 4), bytes.subarray(4)].map((part) => decoder.push(part));
    expect(parts.join("") + decoder.end()).toBe("ab€cd");
    const bad = new ByteDecoder();
    expect(() => bad.push(cp1252("abcé, more text")) + bad.end()).toThrow(NotUtf8Error);
  });
});

describe("reading CSV rows", () => {
  it("sniffs comma, semicolon and tab from the header line, quotes respected", () => {
    expect(sniffDelimiter("a,b,c\n1;2;3;4;5\n")).toBe(",");
    expect(sniffDelimiter('Vorname;Nachname;"Firma, GmbH"\n')).toBe(";");
    expect(sniffDelimiter("a\tb\tc,d\n")).toBe("\t");
    expect(sniffDelimiter("Email\n")).toBe(",");
  });

  it("reads a semicolon file from Excel in Europe", () => {
    const table = readCsvBytes(cp1252("Vorname;Nachname;Firma;E-Mail\r\nJürgen;Groß;Müller & Söhne;j@m.example\r\n"));
    expect(table.delimiter).toBe(";");
    expect(table.header).toEqual(["Vorname", "Nachname", "Firma", "E-Mail"]);
    expect(table.rows).toEqual([{ line: 2, cells: ["Jürgen", "Groß", "Müller & Söhne", "j@m.example"] }]);
    expect(table.notices).toHaveLength(1);
  });

  it("handles quotes, doubled quotes, delimiters and line breaks in cells, CRLF, LF and CR; lines counted", () => {
    const records = parseCsvText('a,b\r\n"x, y","say ""hi"""\r\n"multi\nline",z\rlast,"5\'10"" tall"\n');
    expect(records).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["x, y", 'say "hi"'] },
      { line: 3, cells: ["multi\nline", "z"] },
      { line: 5, cells: ["last", "5'10\" tall"] },
    ]);
  });

  it("keeps repeated and empty header names and cells beyond the header", () => {
    const table = readCsvBytes(utf8("Email,Email,,\r\na@x.example,b@x.example,,,extra,more\r\n"));
    expect(table.header).toEqual(["Email", "Email", "", ""]);
    expect(table.rows[0]!.cells).toEqual(["a@x.example", "b@x.example", "", "", "extra", "more"]);
    expect(table.width).toBe(6);
  });

  it("reports an unterminated quote on its line and loses only that row", () => {
    const lines = [
      "Email,Note",
      'a1@x.example,"never closed',
      ...Array.from({ length: 998 }, (_, i) => `r${i}@x.example,fine`),
    ];
    const records = parseCsvText(`${lines.join("\r\n")}\r\n`);
    expect(records.filter(isBadRow)).toEqual([{ line: 2, problem: "a quote opened in column 2 is never closed" }]);
    const rows = records.filter((record) => !isBadRow(record));
    expect(rows).toHaveLength(999);
    expect(rows.at(-1)).toEqual({ line: 1000, cells: ["r997@x.example", "fine"] });
  });

  it("reports text after a closing quote, and resumes on the next line", () => {
    const records = parseCsvText('a,b\n"x"y,1\n"open,2\n3,"4"\n');
    expect(records).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, problem: "text follows the closing quote in column 1" },
      { line: 3, problem: "text follows the closing quote in column 1" },
      { line: 4, cells: ["3", "4"] },
    ]);
  });

  it("gives the same rows however the bytes are chunked", () => {
    const text = '\uFEFFName;Note\r\n"Renée";"a;b\r\nc"\r\nJosé;x\r\n';
    const bytes = utf8(text);
    const whole = readCsvBytes(bytes);
    for (const size of [1, 2, 3, 5, 7]) {
      const reader = new TableReader();
      const records = [];
      for (let i = 0; i < bytes.length; i += size) records.push(...reader.push(bytes.subarray(i, i + size)));
      records.push(...reader.end());
      expect(records).toEqual([{ line: 1, cells: whole.header }, ...whole.rows]);
    }
  });

  it("keeps blank rows between rows in their place, chunked or whole; blank lines before the header or after the last row are not rows", () => {
    const text = "\r\nEmail,Name\r\na@x.example,Ada\r\n\r\n,\r\nb@x.example,Bob\r\n\r\n\r\n";
    const whole = readCsvBytes(utf8(text));
    expect(whole.header).toEqual(["Email", "Name"]);
    expect(whole.rows).toEqual([
      { line: 3, cells: ["a@x.example", "Ada"] },
      { line: 4, cells: [""] },
      { line: 5, cells: ["", ""] },
      { line: 6, cells: ["b@x.example", "Bob"] },
    ]);
    const reader = new TableReader();
    const records = [];
    for (const char of utf8(text)) records.push(...reader.push(Uint8Array.of(char)));
    records.push(...reader.end());
    expect(records).toEqual([{ line: 2, cells: whole.header }, ...whole.rows]);
  });

  it("keeps a sheet's blank rows between rows in their place, with the sheet's row numbers", () => {
    const table = tableFromRows([[], ["Email"], ["a@x.example"], [""], [], ["b@x.example"], [""], []]);
    expect(table.header).toEqual(["Email"]);
    expect(table.rows).toEqual([
      { line: 3, cells: ["a@x.example"] },
      { line: 4, cells: [""] },
      { line: 5, cells: [] },
      { line: 6, cells: ["b@x.example"] },
    ]);
  });

  it("reads a 30,000-row file", () => {
    const lines = ["First Name,Last Name,Company"];
    for (let i = 0; i < 30_000; i++) lines.push(`Ada${i},Lovelace,"Analytical, ${i}"`);
    const table = readCsvBytes(utf8(lines.join("\n")));
    expect(table.rows).toHaveLength(30_000);
    expect(table.rows[29_999]).toEqual({ line: 30_001, cells: ["Ada29999", "Lovelace", "Analytical, 29999"] });
    expect(table.badRows).toEqual([]);
  });
});

describe("reading JSON Lines", () => {
  it("makes every key a column in order of first appearance, values as text, and reports lines that are not objects", () => {
    const table = readJsonlText(
      '{"Full Name":"Grace Hopper","tag":"vip"}\n\n[1]\n{"email":"alan@turing.example","tag":7,"extra":{"a":1}}\nnot json\n',
    );
    expect(table.header).toEqual(["Full Name", "tag", "email", "extra"]);
    expect(table.rows).toEqual([
      { line: 1, cells: ["Grace Hopper", "vip", "", ""] },
      { line: 4, cells: ["", "7", "alan@turing.example", '{"a":1}'] },
    ]);
    expect(table.badRows.map((row) => row.line)).toEqual([3, 5]);
  });
});
