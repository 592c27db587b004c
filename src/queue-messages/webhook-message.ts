import * as z from "zod";

/**
 * One queue message per webhook delivery: the batch holds the rest. `delivery`
 * names an item.completed delivery of the batch; without it, batch.completed.
 */
export const webhookMessageSchema = z.object({
  batchId: z.string(),
  delivery: z.number().int().nonnegative().optional(),
});
export type WebhookMessage = z.infer<typeof webhookMessageSchema>;
