// A chosen file, before it is sent: its first rows, the columns each API field
// takes (changeable), and how many rows are valid, invalid (and why) or repeated.
import { byId, fillTable, h } from "./dom";
import { chooseColumn, FIELD_LABELS, FIELDS, type Mapping, type Prepared, prepare, type Table } from "./file-adapter";
import { count, num } from "./words";

const PREVIEW_ROWS = 5;
const NOT_USED = "";

export interface Review extends Prepared {
  /** The rows not sent, by why (blank rows too: they keep their place in the output). */
  invalid: Map<string, number[]>;
  blank: number;
  duplicates: number;
}

export function review(table: Table, mapping: Mapping): Review {
  const prepared = prepare(table, mapping);
  const invalid = new Map<string, number[]>();
  prepared.rows.forEach((row, i) => {
    if ("problem" in row) invalid.set(row.problem, [...(invalid.get(row.problem) ?? []), table.rows[i]!.line]);
  });
  const seen = new Set<string>();
  let duplicates = 0;
  for (const item of prepared.items) {
    const key = JSON.stringify(
      FIELDS.map((field) => (field === "externalId" ? "" : (item[field] ?? "").toLowerCase())),
    );
    if (seen.has(key)) duplicates++;
    seen.add(key);
  }
  const blank = prepared.rows.filter((row) => "reason" in row && row.reason === "blank").length;
  return { ...prepared, invalid, blank, duplicates };
}

const label = (column: string) => (column.trim() === "" ? "(blank)" : column);

export function showPreview(table: Table): void {
  const shown = table.rows.slice(0, PREVIEW_ROWS);
  const width = Math.max(table.header.length, ...shown.map((row) => row.cells.length));
  const header = Array.from({ length: width }, (_, i) => label(table.header[i] ?? `(extra ${i + 1})`));
  fillTable(
    byId<HTMLTableElement>("preview"),
    header,
    shown.map((row) => Array.from({ length: width }, (_, i) => row.cells[i] ?? "")),
  );
  byId("preview-count").textContent = `The first ${count(shown.length, "row")} of ${num(table.rows.length)}, as read.`;
}

/** One select per API field, by column name (every column of that name feeds it); `onChange` is told the new mapping. */
export function showMapping(table: Table, mapping: Mapping, onChange: (mapping: Mapping) => void): void {
  const names = [...new Set(table.header)];
  const controls = FIELDS.map((field) => {
    const select = h("select", { id: `map-${field}`, name: field });
    select.append(h("option", { value: NOT_USED }, "(not used)"));
    const chosen = mapping[field]?.map((index) => table.header[index] ?? "");
    for (const name of names) {
      const repeats = table.header.filter((column) => column === name).length;
      const option = h("option", { value: name }, repeats > 1 ? `${label(name)} (×${repeats})` : label(name));
      option.selected = chosen?.[0] === name;
      select.append(option);
    }
    const others = [...new Set(chosen?.slice(1).filter((name) => name !== chosen[0]))];
    select.addEventListener("change", () => {
      mapping = chooseColumn(table.header, mapping, field, select.value);
      onChange(mapping);
    });
    const note = others.length > 0 ? [h("span", { class: "help" }, `then ${others.map(label).join(", ")}`)] : [];
    return h("label", { for: `map-${field}` }, FIELD_LABELS[field], select, ...note);
  });
  byId("mapping").replaceChildren(...controls);
}

export function showCounts(table: Table, result: Review): void {
  const invalidRows = [...result.invalid.values()].reduce((n, rows) => n + rows.length, 0) - result.blank;
  const entry = (term: string, value: number, id: string, bad = false) =>
    h("div", {}, h("dt", {}, term), h("dd", { id, ...(bad && value > 0 ? { class: "bad" } : {}) }, num(value)));
  byId("counts").replaceChildren(
    entry("Rows", table.rows.length + table.badRows.length, "count-rows"),
    entry("Valid", result.items.length, "count-valid"),
    entry("Invalid", invalidRows + table.badRows.length, "count-invalid", true),
    entry("Duplicates", result.duplicates, "count-duplicates"),
    ...(result.blank > 0 ? [entry("Blank (kept in place)", result.blank, "count-blank")] : []),
  );
  const lines = (rows: number[]) =>
    `${rows.length === 1 ? "line" : "lines"} ${rows.slice(0, 10).map(num).join(", ")}${rows.length > 10 ? ", …" : ""}`;
  const list = [
    ...table.badRows.map((bad) =>
      h(
        "li",
        {},
        `Line ${num(bad.line)} cannot be read (${bad.problem}). It is left out of the output; fix it to keep it.`,
      ),
    ),
    ...[...result.invalid].map(([why, rows]) =>
      h("li", {}, `${count(rows.length, "row")} not sent (${lines(rows)}). ${why}`),
    ),
  ];
  byId("invalid-list").replaceChildren(...list);
  byId("invalid-details").hidden = list.length === 0;
}
