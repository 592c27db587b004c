import * as z from "zod";
import { jurisdictionOfBatch } from "../base/batch-id";
import { ENVIRONMENTS } from "../base/environment";
import { CONTACT_FIELDS } from "../contact-info/contact";
import { normalizedPersonSchema } from "../contact-info/person";
import { personHashesSchema } from "../contact-info/person-keys";

/**
 * An item as its message carries it: the person normalized once, at submission,
 * its key and its hashes, so the consumer needs no read-back and neither
 * normalizes, keys nor hashes it again.
 */
const personItemSchema = z.object({
  index: z.number().int().nonnegative(),
  person: normalizedPersonSchema,
  personKey: z.string(),
  hashes: personHashesSchema,
});
/** An item with its person, as the enricher takes it. */
export type PersonItem = z.infer<typeof personItemSchema>;

/** A pending leader's row as the queue needs it: what the submission stored with a valid item. */
export type StoredPerson = {
  idx: number;
  person: string;
  person_key: string;
  hashes: string;
};
/** The columns a StoredPerson is read from. */
export const STORED_PERSON_COLUMNS = "idx, person, person_key, hashes";

/** A stored item's person, checked by the item schema as everything read back from storage is. */
export const storedPersonItem = (row: StoredPerson): PersonItem =>
  personItemSchema.parse({
    index: row.idx,
    person: JSON.parse(row.person),
    personKey: row.person_key,
    hashes: JSON.parse(row.hashes),
  });

/**
 * An item of a batch kept in a jurisdiction travels as its index only: the queue is
 * not held to one, so no person goes through it, and the consumer reads the people
 * from the batch object (its answer to `stillPending`).
 */
// Strict: an item that names a person must carry all of it (personItemSchema), never pass as an index.
const indexOnlySchema = z.strictObject({ index: z.number().int().nonnegative() });

/** An item as a message carries it: with its person, or (a batch kept in a jurisdiction) its index only. */
const messageItemSchema = z.union([personItemSchema, indexOnlySchema]);
export type MessageItem = z.infer<typeof messageItemSchema>;

/** What goes on the queue for `items` of batch `batchId`: ids only for a batch kept in a jurisdiction. */
export const queuedItems = (batchId: string, items: MessageItem[]): MessageItem[] =>
  jurisdictionOfBatch(batchId) ? items.map(({ index }) => ({ index })) : items;

export const messageBatchSchema = z.object({
  batchId: z.string(),
  /** The batch's owner: whose suppression lists and result-cache entries its items use. */
  customerId: z.string(),
  environment: z.enum(ENVIRONMENTS),
  fields: z.array(z.enum(CONTACT_FIELDS)),
  /** The submit's maxAgeDays: how old a cached result or verdict its items may be served. */
  maxAgeDays: z.number().int().nonnegative(),
});
/** What every item of a message shares: its batch. */
export type MessageBatchFields = z.infer<typeof messageBatchSchema>;

/**
 * Items per message, the queue's unit of billing and of retry. Ten cut the
 * operations and the messages a queue takes a second tenfold, and with the
 * consumer's max_batch_size of 10 an invocation holds the 100 items it held
 * with one item per message (wrangler.toml).
 */
export const ITEMS_PER_MESSAGE = 10;

/** One queue message: up to ITEMS_PER_MESSAGE items of one batch (see `packMessages`). */
export const itemMessageSchema = messageBatchSchema.extend({
  items: z.array(messageItemSchema).min(1),
  /**
   * Attempts its items made before this message: set when the consumer sends a message
   * again because our rate governor held its items back (that attempt did not count).
   */
  attemptsBefore: z.number().int().nonnegative().optional(),
});
export type ItemMessage = z.infer<typeof itemMessageSchema>;

// Queues accept at most 100 messages and 256 KB per sendBatch (local Miniflare:
// 288,000 bytes), and 128 KB per message, counted in bytes of the serialized
// bodies, and bill per 64 KB of a message. A message is sent as its JSON text
// (`MESSAGE_CONTENT_TYPE`), made once (`packMessages`): the bytes counted are the
// bytes sent, and the queue does not serialize the body again (as "json" it
// would, and as "v8" a string with one non-Latin-1 character would cost two bytes
// per character). The headroom covers per-message metadata. Consumers parse it
// back (validatingConsumer).
export const MAX_MESSAGES_PER_SEND = 100;
export const MAX_BYTES_PER_SEND = 200_000;
export const MAX_MESSAGE_BYTES = 128_000;
/** A message takes more items only while it stays within one billing unit. */
export const MESSAGE_TARGET_BYTES = 64_000;
export const MESSAGE_OVERHEAD_BYTES = 256;
export const MESSAGE_CONTENT_TYPE = "text" satisfies QueueContentType;

/** A message as it is sent: its items, its JSON, and what the queue counts for it (the JSON in UTF-8, plus the headroom). */
export type EncodedMessage = { items: MessageItem[]; json: string; bytes: number };

const encoder = new TextEncoder();
const ASCII = /^[\0-\x7f]*$/;
// Most texts are ASCII, one byte per character: known without encoding them.
const utf8Bytes = (text: string): number => (ASCII.test(text) ? text.length : encoder.encode(text).byteLength);

/**
 * Packs a batch's items, in order, into messages of up to ITEMS_PER_MESSAGE
 * items and MESSAGE_TARGET_BYTES (a message always takes its first item). Each
 * item is serialized once, and a message's JSON is joined from its items' JSON,
 * so its size is known exactly as it is built. An item too large to be queued
 * even alone (over MAX_MESSAGE_BYTES) is returned apart: resending it could
 * never succeed.
 */
export function packMessages(
  batch: MessageBatchFields,
  items: readonly MessageItem[],
): { messages: EncodedMessage[]; tooLarge: MessageItem[] } {
  const { batchId, customerId, environment, fields, maxAgeDays } = batch;
  // `{"batchId":…,"items":[` + the items' JSON, comma-separated + `]}`.
  const head = JSON.stringify({ batchId, customerId, environment, fields, maxAgeDays, items: [] }).slice(0, -2);
  const frame = utf8Bytes(head) + 2 + MESSAGE_OVERHEAD_BYTES;
  const messages: EncodedMessage[] = [];
  const tooLarge: MessageItem[] = [];
  let group: MessageItem[] = [];
  let parts: string[] = [];
  let bytes = frame;
  const close = () => {
    if (group.length === 0) return;
    messages.push({ items: group, json: `${head}${parts.join(",")}]}`, bytes });
    group = [];
    parts = [];
    bytes = frame;
  };
  for (const item of items) {
    const json = JSON.stringify(item);
    const itemBytes = utf8Bytes(json);
    if (frame + itemBytes > MAX_MESSAGE_BYTES) {
      tooLarge.push(item);
      continue;
    }
    // Every item but a message's first follows a comma.
    if (group.length === ITEMS_PER_MESSAGE || (group.length > 0 && bytes + 1 + itemBytes > MESSAGE_TARGET_BYTES))
      close();
    bytes += itemBytes + (group.length > 0 ? 1 : 0);
    group.push(item);
    parts.push(json);
  }
  close();
  return { messages, tooLarge };
}

/** Splits messages into sendBatch-sized chunks, by count and by encoded size. */
export function chunkForSend<M extends { bytes: number }>(messages: readonly M[]): M[][] {
  const chunks: M[][] = [];
  let chunk: M[] = [];
  let bytes = 0;
  for (const message of messages) {
    if (chunk.length === MAX_MESSAGES_PER_SEND || (chunk.length > 0 && bytes + message.bytes > MAX_BYTES_PER_SEND)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(message);
    bytes += message.bytes;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * Sends a chunk; if the queue refuses it, sends its two halves instead, so a chunk
 * the queue finds too large is never resent as is. (The local queue reports a
 * size refusal only as an internal error, so any refusal splits.) A refused
 * single message is thrown: the queue is failing, not the size, since messages
 * are packed below MAX_MESSAGE_BYTES.
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
