import { batchStub } from "../batch/stub";
import { readConfig } from "../config";
import { log, logError } from "../log";
import { retryDelaySeconds } from "../queue/backoff";
import { signWebhook } from "./signature";

export interface WebhookMessage {
  batchId: string;
}

/**
 * Delivers batch.completed events, signed per Standard Webhooks. A non-2xx
 * answer, a redirect (never followed: it could lead anywhere) or a timeout is
 * retried with backoff until WEBHOOK_MAX_ATTEMPTS; every attempt is recorded on
 * the batch, whose status shows the delivery state.
 */
export async function deliverWebhooks(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  const config = readConfig(env);
  await Promise.all(
    batch.messages.map(async (message) => {
      const { batchId } = message.body;
      const stub = batchStub(env, batchId);
      try {
        const event = await stub.webhookEvent();
        if (!event) return message.ack();
        const timestamp = Math.floor(Date.now() / 1000);
        let status: number | null = null;
        try {
          const response = await fetch(event.url, {
            method: "POST",
            redirect: "manual",
            signal: AbortSignal.timeout(config.webhookTimeoutMs),
            headers: {
              "content-type": "application/json",
              "user-agent": "contact-info-batch-webhooks/1",
              "webhook-id": event.id,
              "webhook-timestamp": String(timestamp),
              "webhook-signature": await signWebhook(event.secret, event.id, timestamp, event.body),
            },
            body: event.body,
          });
          status = response.status;
          await response.body?.cancel();
        } catch {
          // No answer in time, or no connection: a failed attempt like a 5xx.
        }
        const delivered = status !== null && status >= 200 && status < 300;
        const last = message.attempts >= config.webhookMaxAttempts;
        await stub.recordWebhookAttempt({ status, state: delivered ? "delivered" : last ? "failed" : "queued" });
        log("webhook_attempt", { batchId, attempt: message.attempts, status, delivered });
        if (delivered || last) message.ack();
        else message.retry({ delaySeconds: retryDelaySeconds(message.attempts, config.retryBaseDelaySeconds, config.retryMaxDelaySeconds) });
      } catch (error) {
        logError("webhook_delivery_error", error, { batchId, attempt: message.attempts });
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts, config.retryBaseDelaySeconds, config.retryMaxDelaySeconds) });
      }
    }),
  );
}

/** Deliveries whose consumer kept crashing: the batch shows the webhook failed. */
export async function abandonWebhooks(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    await batchStub(env, message.body.batchId).abandonWebhook();
    message.ack();
  }
}
