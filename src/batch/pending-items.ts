import { jurisdictionOfBatch } from "../base/batch-id";
import {
  type MessageItem,
  type PersonItem,
  STORED_PERSON_COLUMNS,
  type StoredPerson,
  storedPersonItem,
} from "../queue-messages/item-message";
import { pendingAmong } from "./item-store";

// The consumer's question before it enriches (stillPending, queue/pending-only.ts): which of a
// group's items the fan-out sent are still to be processed, with their people where the messages
// carry none.

/**
 * Of `indexes`, the items of batch `batchId` still pending. A batch kept in a
 * jurisdiction sends indexes only (queue-messages/item-message.ts), so it answers each with its
 * person, which the consumer cannot find anywhere else; any other batch, the
 * indexes alone, as its messages carry the people.
 */
export function pendingItems(sql: SqlStorage, batchId: string, indexes: readonly number[]): MessageItem[] {
  if (jurisdictionOfBatch(batchId) !== undefined) return pendingPeople(sql, indexes);
  return pendingAmong(sql, indexes).map((index) => ({ index }));
}

/** The pending items among `indexes`, each with its person as the submission stored it. */
function pendingPeople(sql: SqlStorage, indexes: readonly number[]): PersonItem[] {
  return sql
    .exec<StoredPerson>(
      `SELECT ${STORED_PERSON_COLUMNS} FROM items WHERE idx IN (SELECT value FROM json_each(?)) AND status = 'pending'`,
      JSON.stringify(indexes),
    )
    .toArray()
    .map(storedPersonItem);
}
