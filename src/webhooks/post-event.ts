import type { WebhookEvent } from "../contact-info/webhook-event";
import { signWebhook } from "./signature";

/**
 * One signed POST of a batch.completed event (Standard Webhooks). Answers the
 * receiver's status, or null when it gave no answer within `timeoutMs` or could
 * not be reached. Redirects are never followed: they could lead anywhere.
 */
export async function postEvent(event: WebhookEvent, timeoutMs: number): Promise<number | null> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const response = await fetch(event.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        "content-type": "application/json",
        "user-agent": "contact-info-batch-webhooks/1",
        "webhook-id": event.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": await signWebhook(event.secret, event.id, timestamp, event.body),
      },
      body: event.body,
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return null;
  }
}
