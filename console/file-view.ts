// A chosen file, before it is sent: its first rows, the column each API field
// takes (changeable), and how many rows are valid, invalid (and why) or repeated.
import type { SubmitItem } from "../client/src/index";
import { byId, fillTable, h } from "./dom";
import { FIELDS, type Field, type Mapping, type Sheet, toItem, whyInvalid } from "./file-adapter";

const PREVIEW_ROWS = 5;
const NOT_USED = "";

export interface Review {
  items: SubmitItem[];
  valid: number;
  invalid: Map<string, number[]>;
  duplicates: number;
}

export function review(sheet: Sheet, mapping: Mapping): Review {
  const items = sheet.rows.map((row) => toItem(sheet.columns, row, mapping));
  const invalid = new Map<string, number[]>();
  const seen = new Set<string>();
  let valid = 0;
  let duplicates = 0;
  items.forEach((item, i) => {
    const why = whyInvalid(item);
    if (why !== undefined) invalid.set(why, [...(invalid.get(why) ?? []), i + 2]);
    else valid++;
    const key = JSON.stringify(FIELDS.map((field) => (field === "externalId" ? "" : (item[field] ?? "").toLowerCase())));
    if (why === undefined && seen.has(key)) duplicates++;
    seen.add(key);
  });
  return { items, valid, invalid, duplicates };
}

const label = (column: string) => (column.trim() === "" ? "(blank)" : column);

export function showPreview(sheet: Sheet): void {
  const width = Math.max(sheet.columns.length, ...sheet.rows.slice(0, PREVIEW_ROWS).map((row) => row.length));
  const header = Array.from({ length: width }, (_, i) => label(sheet.columns[i] ?? `(extra ${i + 1})`));
  const rows = sheet.rows.slice(0, PREVIEW_ROWS).map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ""));
  fillTable(byId<HTMLTableElement>("preview"), header, rows);
  byId("preview-count").textContent = `The first ${Math.min(PREVIEW_ROWS, sheet.rows.length)} of ${sheet.rows.length} rows, as read.`;
}

/** One select per API field; `onChange` is told the new mapping. */
export function showMapping(sheet: Sheet, mapping: Mapping, onChange: (mapping: Mapping) => void): void {
  const names = [...new Set(sheet.columns)];
  const controls = FIELDS.map((field: Field) => {
    const select = h("select", { id: `map-${field}`, name: field });
    select.append(h("option", { value: NOT_USED }, "(not used)"));
    for (const name of names) {
      const repeats = sheet.columns.filter((column) => column === name).length;
      const option = h("option", { value: name }, repeats > 1 ? `${label(name)} (×${repeats})` : label(name));
      option.selected = mapping[field] === name;
      select.append(option);
    }
    select.addEventListener("change", () => {
      const next: Mapping = { ...mapping };
      if (select.value === NOT_USED) delete next[field];
      else next[field] = select.value;
      mapping = next;
      onChange(next);
    });
    return h("label", { for: `map-${field}` }, field, select);
  });
  byId("mapping").replaceChildren(...controls);
}

export function showCounts(sheet: Sheet, result: Review): void {
  const invalidRows = [...result.invalid.values()].reduce((n, rows) => n + rows.length, 0);
  const entry = (term: string, value: number, id: string, bad = false) =>
    h("div", {}, h("dt", {}, term), h("dd", { id, ...(bad && value > 0 ? { class: "bad" } : {}) }, value));
  byId("counts").replaceChildren(
    entry("Rows", sheet.rows.length, "count-rows"),
    entry("Valid", result.valid, "count-valid"),
    entry("Invalid", invalidRows, "count-invalid", true),
    entry("Duplicates", result.duplicates, "count-duplicates"),
  );
  const list = [...result.invalid].map(([why, rows]) =>
    h("li", {}, `${rows.length} row(s): ${why} (line ${rows.slice(0, 10).join(", ")}${rows.length > 10 ? ", …" : ""})`),
  );
  byId("invalid-list").replaceChildren(...list);
  byId("invalid-details").hidden = list.length === 0;
}
