import * as z from "zod";
import type { ItemDeferral, ItemOutcome } from "../../contact-info/batch-contract";
import { type Contacts, emailSchema, mergeContacts, phoneSchema } from "../../contact-info/contact";

// What an item's attempts found before a source asked for time (items.found_earlier),
// kept until the item ends, so its end never discards it: a later attempt's answer is
// merged with it, and an end with nothing of its own (a last attempt that found nothing,
// the deadline, lost messages, the dead-letter queue) completes the item with it instead
// of failing it.

// Validated when read back, as everything read from storage is: what does not parse is not kept.
const contactsSchema = z.object({ emails: z.array(emailSchema), phones: z.array(phoneSchema) });

const NOTHING: Contacts = { emails: [], phones: [] };
const isEmpty = ({ emails, phones }: Contacts): boolean => emails.length + phones.length === 0;

/** Keeps what deferred items found, merged with what they had found before; within the caller's transaction. */
export function keepEarlierFinds(sql: SqlStorage, deferrals: readonly ItemDeferral[]): void {
  const finds = deferrals.filter(
    (deferral): deferral is ItemDeferral & { found: Contacts } => !!deferral.found && !isEmpty(deferral.found),
  );
  if (finds.length === 0) return;
  const earlier = readEarlierFinds(sql, finds);
  sql.exec(
    `UPDATE items SET found_earlier = f.value ->> 1 FROM jsonb_each(?) AS f WHERE items.idx = f.value ->> 0 AND +items.status = 'pending'`,
    JSON.stringify(
      finds.map(({ index, found }) => [index, JSON.stringify(mergeContacts(earlier.get(index) ?? NOTHING, found))]),
    ),
  );
}

/** The outcomes, each merged with what its item found before; the same array when no item of the batch kept any. */
export function withEarlierFinds(sql: SqlStorage, outcomes: readonly ItemOutcome[]): readonly ItemOutcome[] {
  // One look at the partial index items_with_earlier_finds: almost always empty.
  if (sql.exec("SELECT 1 FROM items WHERE found_earlier IS NOT NULL LIMIT 1").toArray().length === 0) return outcomes;
  const earlier = readEarlierFinds(sql, outcomes);
  return earlier.size === 0
    ? outcomes
    : outcomes.map((outcome) => endWithEarlierFinds(outcome, earlier.get(outcome.index) ?? NOTHING));
}

/**
 * An item's end, given what it found before: a completed outcome merged with it, and
 * any other (nothing found, or failed) completed with it, keeping the last attempt's
 * sources. Unchanged when nothing was found before.
 */
export function endWithEarlierFinds(outcome: ItemOutcome, earlier: Contacts): ItemOutcome {
  if (isEmpty(earlier)) return outcome;
  // The last answer first: at equal confidence it wins (its verification is the newer).
  const found = outcome.status === "completed" ? mergeContacts(outcome, earlier) : earlier;
  return {
    index: outcome.index,
    status: "completed",
    outcome: "found",
    emails: found.emails,
    phones: found.phones,
    sources: outcome.sources,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readEarlierFinds(sql: SqlStorage, items: readonly { index: number }[]): Map<number, Contacts> {
  const rows = sql
    .exec<{ idx: number; found_earlier: string }>(
      "SELECT idx, found_earlier FROM items WHERE idx IN (SELECT value FROM json_each(?)) AND found_earlier IS NOT NULL AND status = 'pending'",
      JSON.stringify(items.map(({ index }) => index)),
    )
    .toArray();
  const finds = new Map<number, Contacts>();
  for (const { idx, found_earlier } of rows) {
    const parsed = contactsSchema.safeParse(parseJson(found_earlier));
    if (parsed.success) finds.set(idx, parsed.data);
  }
  return finds;
}
