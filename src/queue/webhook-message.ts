import * as z from "zod";

/** One queue message per batch.completed delivery: the batch holds the rest. */
export const webhookMessageSchema = z.object({ batchId: z.string() });
export type WebhookMessage = z.infer<typeof webhookMessageSchema>;
