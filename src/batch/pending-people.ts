import { type PersonItem, personItemSchema } from "./item-message";

type Row = { idx: number; input: string; person: string | null; person_key: string | null };

/**
 * Of `indexes`, the items still pending, with their people: what a consumer of a batch
 * kept in a jurisdiction reads here, since its messages carry indexes only. A row from
 * before `person` was stored carries its input, which the schema normalizes.
 */
export function pendingPeopleAmong(sql: SqlStorage, indexes: readonly number[]): PersonItem[] {
  return sql
    .exec<Row>(
      "SELECT idx, input, person, person_key FROM items WHERE idx IN (SELECT value FROM json_each(?)) AND status = 'pending'",
      JSON.stringify(indexes),
    )
    .toArray()
    .map((row) =>
      personItemSchema.parse(
        row.person !== null && row.person_key !== null
          ? { index: row.idx, person: JSON.parse(row.person), personKey: row.person_key }
          : { index: row.idx, input: JSON.parse(row.input) },
      ),
    );
}
