import type * as z from "zod";
import { log } from "../base/log";

export type QueueConsumer = (batch: MessageBatch<unknown>, env: Env) => Promise<void>;

/**
 * A consumer that hands `handle` only the messages whose body `schema` accepts,
 * with the parsed body. A body sent as JSON text (the item queue's, see
 * item-message.ts) is parsed first; one sent as an object (the webhook queue's)
 * is taken as it is. Any other message
 * is acked and logged by id: no attempt can read it, so retrying would only walk
 * it to the dead-letter queue, and from there forever. The body is never logged,
 * as it holds personal data.
 */
export function validatingConsumer<T>(
  schema: z.ZodType<T>,
  handle: (messages: Message<T>[], env: Env) => Promise<void>,
): QueueConsumer {
  return (batch, env) => {
    const accepted: Message<T>[] = [];
    for (const message of batch.messages) {
      const parsed = schema.safeParse(typeof message.body === "string" ? parseJsonText(message.body) : message.body);
      if (parsed.success) {
        accepted.push(withBody(message, parsed.data));
      } else {
        log("queue_message_malformed", { queue: batch.queue, messageId: message.id, attempt: message.attempts });
        message.ack();
      }
    }
    return handle(accepted, env);
  };
}

/** The value of a JSON text; a text that is not JSON stays as it is, and no schema of ours accepts a string. */
function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const withBody = <T>(message: Message<unknown>, body: T): Message<T> => ({
  id: message.id,
  timestamp: message.timestamp,
  attempts: message.attempts,
  body,
  ack: () => message.ack(),
  retry: (options) => message.retry(options),
});
