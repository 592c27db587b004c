import { jurisdictionOfBatch } from "../../base/batch-id";
import { log, logError } from "../../base/log";
import { batchCompletedEvent } from "../../contact-info/webhook-event";
import { type BatchRow, summary } from "../batch-row";
import { retryStepLater, stepSucceeded } from "../step-retry";
import { webhookHub } from "./webhook-hub-stub";

/**
 * The alarm's step once the batch completed: hands batch.completed to the customer's WebhookHub, which
 * makes a delivery for each enabled endpoint subscribed to it (one per endpoint however often this is
 * sent, so a retry after a lost answer doubles nothing), then marks it published. False when the hub
 * could not be reached, and the alarm was armed to try again.
 */
export async function publishEvents(env: Env, storage: DurableObjectStorage, row: BatchRow): Promise<boolean> {
  if (row.completed_at !== null) {
    const event = batchCompletedEvent({
      summary: { ...summary(row), completedAt: row.completed_at },
      environment: row.environment,
      statusUrl: row.status_url,
    });
    const tenant = {
      customerId: row.customer_id,
      environment: row.environment,
      jurisdiction: jurisdictionOfBatch(row.id),
    };
    try {
      const deliveries = await webhookHub(env, tenant).publish({
        eventId: event.id,
        type: "batch.completed",
        payload: event.body,
      });
      if (deliveries > 0) log("webhook_event_published", { batchId: row.id, deliveries });
    } catch (error) {
      logError("webhook_publish_failed", error, { batchId: row.id });
      await retryStepLater(storage, "publish_events");
      return false;
    }
  }
  stepSucceeded(storage, "publish_events");
  storage.sql.exec("UPDATE batch SET events_published = 1");
  return true;
}
