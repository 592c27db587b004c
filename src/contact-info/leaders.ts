import type { NewItem } from "./batch-contract";

/**
 * Within-batch de-duplication: of the valid items with the same person key (the
 * same normalized person), the first is the leader and is the only one enqueued; the
 * others follow it (its index) and share its result. Null for leaders and for
 * invalid items.
 */
export function leaderIndexes(items: readonly NewItem[]): (number | null)[] {
  const leaders = new Map<string, number>();
  return items.map((item, index) => {
    if (item.error !== null) return null;
    const leader = leaders.get(item.personKey);
    if (leader !== undefined) return leader;
    leaders.set(item.personKey, index);
    return null;
  });
}

export interface IntakeCounts {
  total: number;
  /** Failed validation at submission: never processed. */
  invalid: number;
  /** Leaders: what is enqueued for processing. */
  queued: number;
  /** Valid items that follow a leader. */
  duplicates: number;
}

export function intakeCounts(items: readonly NewItem[], leaders: readonly (number | null)[]): IntakeCounts {
  const invalid = items.filter((item) => item.error !== null).length;
  const duplicates = leaders.filter((leader) => leader !== null).length;
  return { total: items.length, invalid, queued: items.length - invalid - duplicates, duplicates };
}
