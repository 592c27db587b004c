// Which input columns feed which field, decided once per file and shown before
// anything is sent. A field fed by several columns (an export with "Email" twice)
// takes the first non-empty cell of each row.
import { type AliasedField, columnKey, FIELD_ALIASES } from "./aliases";

/** For each field, the indexes of the columns that feed it, left to right. */
export type ColumnMapping<Field extends string> = Partial<Record<Field, number[]>>;

export interface MappingOverride {
  field: string;
  /** A header name; "" unmaps the field. */
  column: string;
}

/** "field=Column" as typed on a command line; undefined when there is no "=". */
export function parseOverride(text: string): MappingOverride | undefined {
  const at = text.indexOf("=");
  return at < 1 ? undefined : { field: text.slice(0, at).trim(), column: text.slice(at + 1) };
}

/** The field a header names, by the field's own name first, then by an alias; undefined if none. */
export function matchColumn<Field extends string>(header: string, fields: readonly Field[]): Field | undefined {
  const key = columnKey(header);
  if (key === "") return undefined;
  return (
    fields.find((field) => columnKey(field) === key) ??
    fields.find((field) =>
      (FIELD_ALIASES[field as AliasedField] as readonly string[] | undefined)?.some(
        (alias) => columnKey(alias) === key,
      ),
    )
  );
}

/** A mistake in an override, said so the user can fix it. */
export class MappingError extends Error {
  override readonly name = "MappingError";
}

/** The mapping for a header row: aliases, then the overrides (which replace a field's columns). */
export function decideMapping<Field extends string>(
  header: readonly string[],
  fields: readonly Field[],
  overrides: readonly MappingOverride[] = [],
): ColumnMapping<Field> {
  const mapping: ColumnMapping<Field> = {};
  header.forEach((name, index) => {
    const field = matchColumn(name, fields);
    if (field !== undefined) mapping[field] = [...(mapping[field] ?? []), index];
  });
  for (const { field: name, column } of overrides) {
    const field =
      fields.find((known) => known === name) ?? fields.find((known) => columnKey(known) === columnKey(name));
    if (field === undefined)
      throw new MappingError(`--map ${name}=…: unknown field ${name}; the fields are ${fields.join(", ")}`);
    if (column.trim() === "") {
      delete mapping[field];
      continue;
    }
    let indexes = header.flatMap((other, index) => (other === column ? [index] : []));
    if (indexes.length === 0)
      indexes = header.flatMap((other, index) =>
        columnKey(other) === columnKey(column) && columnKey(column) !== "" ? [index] : [],
      );
    if (indexes.length === 0)
      throw new MappingError(
        `--map ${name}=${column}: the file has no column "${column}"; its columns are ${header.map((h) => `"${h}"`).join(", ")}`,
      );
    mapping[field] = indexes;
  }
  return mapping;
}

/** A field's value in a row: the first of its columns with text, trimmed; "" when none. */
export function fieldValue(cells: readonly string[], indexes: readonly number[] | undefined): string {
  for (const index of indexes ?? []) {
    const value = cells[index]?.trim() ?? "";
    if (value !== "") return value;
  }
  return "";
}

/** The mapping as lines for people: "firstName <- "First Name" (column 2)", then the columns carried through unread. */
export function describeMapping<Field extends string>(
  header: readonly string[],
  mapping: ColumnMapping<Field>,
): string[] {
  const named = (index: number) => `"${header[index] ?? ""}" (column ${index + 1})`;
  const lines = Object.entries(mapping).map(
    ([field, indexes]) => `${field} <- ${(indexes as number[]).map(named).join(", then ")}`,
  );
  const used = new Set(Object.values(mapping).flatMap((indexes) => indexes as number[]));
  const unused = header.flatMap((_, index) => (used.has(index) ? [] : [index]));
  if (unused.length > 0)
    lines.push(`not read (carried through): ${unused.map((index) => `"${header[index]}"`).join(", ")}`);
  return lines;
}
