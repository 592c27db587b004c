import * as z from "zod";
import { ENVIRONMENTS, type Environment } from "../base/environment";
import { notInTheWorker, once } from "../base/once";
import { type BatchSummary, batchSummarySchema } from "./batch-views";

/** The batch.completed event body, as receivers get it (and as the OpenAPI document describes it). */
export const batchCompletedEventSchema = OPENAPI_METADATA
  ? once(() =>
      z.object({
        type: z.literal("batch.completed"),
        timestamp: z.iso.datetime(),
        // Without creditsRefunded: feedback comes after completion, and a retried delivery must send the same bytes.
        data: batchSummarySchema()
          .omit({ creditsRefunded: true })
          .extend({ environment: z.enum(ENVIRONMENTS), statusUrl: z.url() }),
      }),
    )
  : notInTheWorker;

/** What the batch supplies for its event: a completed batch whose webhook awaits delivery. */
export interface CompletedBatch {
  summary: BatchSummary & { completedAt: string };
  /** Whose batch it is: its webhook's deliveries are shown in that customer's delivery log. */
  customerId: string;
  environment: Environment;
  statusUrl: string;
  webhookUrl: string;
  secret: string;
}

/** What the sender needs to send one batch.completed event. */
export interface WebhookEvent {
  /** Stable across retries, so receivers can de-duplicate. */
  id: string;
  url: string;
  /** The batch's: where the URL may lead is checked again before each attempt (webhooks/webhook-destination.ts). */
  environment: Environment;
  secret: string;
  body: string;
}

export function webhookEvent(batch: CompletedBatch): WebhookEvent {
  return { ...batchCompletedEvent(batch), url: batch.webhookUrl, environment: batch.environment, secret: batch.secret };
}

/** The batch.completed event's id and body: the same bytes for the batch's own webhookUrl and for each endpoint. */
export function batchCompletedEvent({
  summary,
  environment,
  statusUrl,
}: Pick<CompletedBatch, "summary" | "environment" | "statusUrl">): { id: string; body: string } {
  const { id, status, totalItems, completedItems, failedItems, createdAt, completedAt, creditsCharged, maxCredits } =
    summary;
  const data = {
    id,
    environment,
    status,
    totalItems,
    completedItems,
    failedItems,
    createdAt,
    completedAt,
    creditsCharged,
    maxCredits,
    statusUrl,
  };
  const event: z.infer<ReturnType<typeof batchCompletedEventSchema>> = {
    type: "batch.completed",
    timestamp: completedAt,
    data,
  };
  return { id: `evt_${id.replaceAll("-", "")}`, body: JSON.stringify(event) };
}

/** One delivery attempt as the sender records it; `refused`: why nothing was sent (its URL's name resolved inside). */
export interface WebhookAttempt {
  status: number | null;
  state: "queued" | "delivered" | "failed";
  refused?: string;
}
