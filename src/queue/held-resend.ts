import { logError } from "../base/log";
import { type ItemMessage, MESSAGE_CONTENT_TYPE } from "../queue-messages/item-message";

/**
 * Sends again, after `delaySeconds`, a message whose items only our rate governor
 * held back (no vendor was asked), carrying the attempts that counted, so the hold
 * costs none of the items' ITEM_MAX_ATTEMPTS nor the queue's max_retries. Answers
 * false when the send failed: the caller then retries the message as any other.
 */
export async function resendHeld(env: Env, message: Message<ItemMessage>, delaySeconds: number): Promise<boolean> {
  const attemptsBefore = (message.body.attemptsBefore ?? 0) + message.attempts - 1;
  try {
    await env.ITEM_QUEUE.send(JSON.stringify({ ...message.body, attemptsBefore }), {
      contentType: MESSAGE_CONTENT_TYPE,
      delaySeconds,
    });
    return true;
  } catch (error) {
    logError("held_resend_failed", error, { batchId: message.body.batchId }, "warn");
    return false;
  }
}
