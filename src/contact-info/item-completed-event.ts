import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
import { itemViewSchema } from "./batch-views";
import { MAX_ITEMS_PER_DELIVERY } from "./webhook-events";

/** The item.completed event body, as receivers get it (and as the OpenAPI document describes it). */
export const itemCompletedEventSchema = OPENAPI_METADATA
  ? once(() =>
      z.object({
        type: z.literal("item.completed"),
        timestamp: z.iso.datetime().meta({ description: "When the items finished (the same on every retry)." }),
        data: z.object({
          batchId: z.uuid(),
          items: z
            .array(itemViewSchema())
            .min(1)
            .max(MAX_ITEMS_PER_DELIVERY)
            .meta({
              description: `The items one record finished, as the status route shows them, by index; at most ${MAX_ITEMS_PER_DELIVERY}. Each item of the batch is in exactly one delivery.`,
            }),
        }),
      }),
    )
  : notInTheWorker;

/** Stable across retries and re-drives of delivery `seq`, and distinct from the batch's batch.completed id. */
export const itemEventId = (batchId: string, seq: number): string => `evt_${batchId.replaceAll("-", "")}_${seq}`;

/** The body around items SQLite already rendered (a JSON array of itemViewSchema items), so none is parsed and re-serialized. */
export function itemCompletedBody(batchId: string, timestamp: string, itemsJson: string): string {
  const envelope = JSON.stringify({ type: "item.completed", timestamp, data: { batchId } });
  return `${envelope.slice(0, -2)},"items":${itemsJson}}}`;
}
