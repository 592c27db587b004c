import type { ContactField } from "../contact-info/contact";
import type { PersonInput } from "../contact-info/person";
import type { Environment } from "../environment";

/** One queue message per item. It carries the input so the consumer needs no read-back. */
export interface ItemMessage {
  batchId: string;
  index: number;
  environment: Environment;
  fields: ContactField[];
  input: PersonInput;
}

// Queues accept at most 100 messages and 256 KB per sendBatch; stay under both.
export const MAX_MESSAGES_PER_SEND = 100;
export const MAX_BYTES_PER_SEND = 200_000;

/** Splits messages into sendBatch-sized chunks, by count and by encoded size. */
export function chunkForSend(messages: ItemMessage[]): ItemMessage[][] {
  const chunks: ItemMessage[][] = [];
  let chunk: ItemMessage[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = JSON.stringify(message).length;
    if (chunk.length === MAX_MESSAGES_PER_SEND || (chunk.length > 0 && bytes + size > MAX_BYTES_PER_SEND)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(message);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
