import * as z from "zod";
import { itemCompletedBody } from "../contact-info/item-completed-event";
import { noteSizeForScrub } from "../privacy/storage/high-water";
import { fillFreePagesWith, zeroed } from "../privacy/storage/scrub";

// The stored payloads of item.completed deliveries hold people's data (what the caller sent, what was
// found), so the erasure of a person and the deletion of a batch reach them (docs/storage.md, "WebhookHub").
// Each such delivery names its batch (deliveries.batch_id). A payload is rewritten whole: the old one
// is overwritten with zeros of its length first (rewritten in place: scrub.ts, zeroed), then the new one
// written, then the free pages are filled with zeros and freed (scrub.ts), as the batch's erasure does.

// An item.completed body as the hub stored it (itemCompletedBody): each item's fields are kept as they
// are, in their order (the index first, as ITEM_JSON renders it), so the rewrite changes only erased items.
const storedItemsBody = z.object({
  type: z.literal("item.completed"),
  timestamp: z.string(),
  data: z.object({ batchId: z.string(), items: z.array(z.looseObject({ index: z.number() })) }),
});

/**
 * The payload with the items `erased` names (index → when it was erased) as the status route shows an
 * erased item (no externalId, input, emails or phones; erasedAt); null when it holds none of them not
 * yet erased, or is not an item.completed body. So erasing again changes nothing.
 */
export function erasedPayload(payload: string, erased: ReadonlyMap<number, string>): string | null {
  const parsed = storedItemsBody.safeParse(JSON.parse(payload));
  if (!parsed.success) return null;
  const body = parsed.data;
  const erasedAtOf = (item: { index: number; erasedAt?: unknown }) =>
    item.erasedAt === undefined ? erased.get(item.index) : undefined;
  if (!body.data.items.some((item) => erasedAtOf(item) !== undefined)) return null;
  const items = body.data.items.map((item) => {
    const erasedAt = erasedAtOf(item);
    return erasedAt === undefined ? item : { ...item, externalId: null, input: {}, emails: [], phones: [], erasedAt };
  });
  return itemCompletedBody(body.data.batchId, body.timestamp, JSON.stringify(items));
}

/** Erases the items `erased` names ([index, erasedAt]) of batch `batchId` from every payload holding them; answers how many payloads changed. */
export function eraseItemPayloads(
  storage: DurableObjectStorage,
  batchId: string,
  erased: readonly (readonly [number, string])[],
): number {
  const wanted = new Map(erased);
  return storage.transactionSync(() => {
    let changed = 0;
    const rows = storage.sql
      .exec<{ seq: number; payload: string }>("SELECT seq, payload FROM deliveries WHERE batch_id = ?", batchId)
      .toArray();
    for (const { seq, payload } of rows) {
      const rewritten = erasedPayload(payload, wanted);
      if (rewritten === null) continue;
      storage.sql.exec(`UPDATE deliveries SET payload = ${zeroed("payload")} WHERE seq = ?`, seq);
      storage.sql.exec("UPDATE deliveries SET payload = ? WHERE seq = ?", rewritten, seq);
      changed++;
    }
    if (changed > 0) scrubFreePages(storage);
    return changed;
  });
}

/** Deletes the deliveries of batch `batchId` (deleted by its caller), their payloads zeroed first; answers how many. */
export function forgetBatchPayloads(storage: DurableObjectStorage, batchId: string): number {
  return storage.transactionSync(() => {
    const { sql } = storage;
    sql.exec(`UPDATE deliveries SET payload = ${zeroed("payload")} WHERE batch_id = ?`, batchId);
    sql.exec("DELETE FROM attempts WHERE delivery_seq IN (SELECT seq FROM deliveries WHERE batch_id = ?)", batchId);
    const deleted = sql.exec("DELETE FROM deliveries WHERE batch_id = ? RETURNING seq", batchId).toArray().length;
    if (deleted > 0) scrubFreePages(storage);
    return deleted;
  });
}

function scrubFreePages(storage: DurableObjectStorage): void {
  noteSizeForScrub(storage);
  fillFreePagesWith(storage, (n, bytes) =>
    storage.sql.exec("INSERT INTO scrub_fillers (n, zeros) VALUES (?, zeroblob(?))", n, bytes),
  );
  storage.sql.exec("DELETE FROM scrub_fillers");
}
