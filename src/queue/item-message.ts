import * as z from "zod";
import { CONTACT_FIELDS } from "../contact-info/contact";
import { normalizedPersonSchema, normalizePerson, PERSON_FIELDS, personKey } from "../contact-info/person";
import { ENVIRONMENTS } from "../environment";

const itemMessageBase = z.object({
  batchId: z.string(),
  index: z.number().int().nonnegative(),
  environment: z.enum(ENVIRONMENTS),
  fields: z.array(z.enum(CONTACT_FIELDS)),
});

/**
 * One queue message per item. It carries the person normalized once, at fan-out,
 * and its key, so the consumer needs no read-back and neither normalizes nor
 * keys it again. A message from an older deploy carries the submitted `input`
 * instead; it is normalized here, so handlers see one shape.
 */
export const itemMessageSchema = z.union([
  itemMessageBase.extend({ person: normalizedPersonSchema, personKey: z.string() }),
  itemMessageBase.extend({ input: z.partialRecord(z.enum(PERSON_FIELDS), z.string()) }).transform(({ input, ...item }) => {
    const person = normalizePerson(input);
    return { ...item, person, personKey: personKey(person) };
  }),
]);
export type ItemMessage = z.infer<typeof itemMessageSchema>;

// Queues accept at most 100 messages and 256 KB per sendBatch (local Miniflare:
// 288,000 bytes), and 128 KB per message, counted in bytes of the serialized
// bodies. A message is sent as its JSON text (`MESSAGE_CONTENT_TYPE`), made once
// (`encodeMessage`): the bytes counted are the bytes sent, and the queue does not
// serialize the body again (as "json" it would, and as "v8" a string with one
// non-Latin-1 character would cost two bytes per character). The headroom covers
// per-message metadata. Consumers parse it back (validatingConsumer).
export const MAX_MESSAGES_PER_SEND = 100;
export const MAX_BYTES_PER_SEND = 200_000;
export const MAX_MESSAGE_BYTES = 128_000;
export const MESSAGE_OVERHEAD_BYTES = 256;
export const MESSAGE_CONTENT_TYPE = "text" satisfies QueueContentType;

const encoder = new TextEncoder();
const ASCII = /^[\0-\x7f]*$/;

/** A message as it is sent: its JSON, and what the queue counts for it (the JSON in UTF-8, plus the headroom). */
export function encodeMessage(message: ItemMessage): { json: string; bytes: number } {
  const json = JSON.stringify(message);
  // Most messages are ASCII, one byte per character: known without encoding them.
  return { json, bytes: (ASCII.test(json) ? json.length : encoder.encode(json).byteLength) + MESSAGE_OVERHEAD_BYTES };
}

export const messageBytes = (message: ItemMessage): number => encodeMessage(message).bytes;

/** Splits messages into sendBatch-sized chunks, by count and by encoded size (`sizeOf`, for sizes already known). */
export function chunkForSend(messages: ItemMessage[], sizeOf: (message: ItemMessage) => number = messageBytes): ItemMessage[][] {
  const chunks: ItemMessage[][] = [];
  let chunk: ItemMessage[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = sizeOf(message);
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

/**
 * Sends a chunk; if the queue refuses it, sends its two halves instead, so a chunk
 * the queue finds too large is never resent as is. (The local queue reports a
 * size refusal only as an internal error, so any refusal splits.) A refused
 * single message is thrown: the queue is failing, not the size, since items are
 * bounded by validation far below MAX_MESSAGE_BYTES.
 */
export async function sendSplitting<T>(chunk: T[], send: (chunk: T[]) => Promise<void>): Promise<void> {
  try {
    await send(chunk);
  } catch (error) {
    if (chunk.length === 1) throw error;
    const half = Math.ceil(chunk.length / 2);
    await sendSplitting(chunk.slice(0, half), send);
    await sendSplitting(chunk.slice(half), send);
  }
}
