import { log, logError } from "../../base/log";
import { itemCompletedBody } from "../../contact-info/item-completed-event";
import { MAX_ITEMS_PER_DELIVERY } from "../../contact-info/webhook-events";
import type { BatchRow } from "../batch-row";
import { ITEM_JSON } from "../item-store";
import { retryStepLater, stepSucceeded } from "../step-retry";
import { batchHub } from "./webhook-hub-stub";

// item.completed for the customer's webhook endpoints (docs/storage.md, endpoint_item_events). Every
// batch writes a row per group of items one record finished (at most MAX_ITEMS_PER_DELIVERY, as its own
// item.completed webhook groups them), in the transaction that finished them, so recording a result
// never waits on the hub; the alarm hands the rows to the customer's WebhookHub and deletes them once it
// took them. The event id is made of the batch and the group's first item (each item is in one group),
// so a group handed over again after a lost answer makes no second delivery (the hub's deliveries_once).

// Groups one alarm step hands over at most (one RPC): up to 2,000 items.
const GROUPS_PER_STEP = 20;

/** Adds the groups of items just finished (followers included): every batch, whatever its own webhook. */
export function appendEndpointItemEvents(sql: SqlStorage, indexes: readonly number[], finishedAt: string): void {
  const sorted = [...indexes].sort((a, b) => a - b);
  for (let start = 0; start < sorted.length; start += MAX_ITEMS_PER_DELIVERY) {
    const group = sorted.slice(start, start + MAX_ITEMS_PER_DELIVERY);
    sql.exec(
      "INSERT INTO endpoint_item_events (first_idx, items, finished_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
      group[0],
      JSON.stringify(group),
      finishedAt,
    );
  }
}

/** The event id of the group starting at item `firstIndex`: distinct from the batch's own webhook's ids (itemEventId). */
const endpointItemEventId = (batchId: string, firstIndex: number): string =>
  `evt_${batchId.replaceAll("-", "")}_items_${firstIndex}`;

/**
 * The alarm's step: renders the oldest groups as the status route shows their items now (an item
 * erased meanwhile goes erased), hands them to the hub, and deletes them. False when the hub could not
 * be reached, and the alarm was armed to try again; the rows stay, so nothing is lost.
 */
export async function publishItemEvents(env: Env, storage: DurableObjectStorage, row: BatchRow): Promise<boolean> {
  const groups = storage.sql
    .exec<{ first: number; finishedAt: string; items: string }>(
      `SELECT e.first_idx AS first, e.finished_at AS finishedAt,
         (SELECT '[' || coalesce(group_concat(item, ','), '') || ']'
          FROM (SELECT ${ITEM_JSON} AS item FROM items WHERE idx IN (SELECT value FROM json_each(e.items)) ORDER BY idx)) AS items
       FROM endpoint_item_events e ORDER BY e.first_idx LIMIT ?`,
      GROUPS_PER_STEP,
    )
    .toArray();
  const events = groups
    .filter(({ items }) => items !== "[]")
    .map(({ first, finishedAt, items }) => ({
      eventId: endpointItemEventId(row.id, first),
      payload: itemCompletedBody(row.id, finishedAt, items),
    }));
  try {
    const deliveries = events.length === 0 ? 0 : await batchHub(env, row).publishItems(row.id, events);
    if (deliveries > 0) log("webhook_event_published", { batchId: row.id, deliveries });
  } catch (error) {
    logError("webhook_publish_failed", error, { batchId: row.id });
    await retryStepLater(storage, "publish_item_events");
    return false;
  }
  stepSucceeded(storage, "publish_item_events");
  storage.sql.exec(
    "DELETE FROM endpoint_item_events WHERE first_idx IN (SELECT value FROM json_each(?))",
    JSON.stringify(groups.map(({ first }) => first)),
  );
  return true;
}
