import * as z from "zod";
import { jurisdictionOfBatch } from "../base/batch-id";
import { ENVIRONMENTS } from "../base/environment";
import { CONTACT_FIELDS } from "../contact-info/contact";
import { normalizedPersonSchema, normalizePerson, PERSON_FIELDS, personKey } from "../contact-info/person";
import { type PersonHashes, personHashesSchema } from "../contact-info/person-keys";

/**
 * An item as its message carries it: the person normalized once, at submission,
 * its key and its hashes, so the consumer needs no read-back and neither
 * normalizes, keys nor hashes it again. An item stored or sent by an older deploy
 * carries the submitted `input` instead; it is normalized as it is read, so
 * handlers see one shape (without hashes: what needs them makes them).
 */
const personItemSchema = z.union([
  z.object({
    index: z.number().int().nonnegative(),
    person: normalizedPersonSchema,
    personKey: z.string(),
    // Plain SHA-256 hashes of an older deploy's message do not parse: what needs hashes makes them.
    hashes: personHashesSchema.optional().catch(undefined),
  }),
  z
    .object({ index: z.number().int().nonnegative(), input: z.partialRecord(z.enum(PERSON_FIELDS), z.string()) })
    .transform(({ index, input }) => {
      const person = normalizePerson(input);
      return { index, person, personKey: personKey(person), hashes: undefined as PersonHashes | undefined };
    }),
]);
/** An item with its person, as the enricher takes it. */
export type PersonItem = z.infer<typeof personItemSchema>;

/** An item's row as the queue needs it (the columns the submission stored). */
export type StoredPerson = {
  idx: number;
  input: string;
  person: string | null;
  person_key: string | null;
  hashes: string | null;
};
/** The columns a StoredPerson is read from. */
export const STORED_PERSON_COLUMNS = "idx, input, person, person_key, hashes";

/**
 * A stored item's person, checked by the item schema since the row may come from
 * an older deploy: one stored without its normalized person carries its input,
 * which the schema normalizes.
 */
export const storedPersonItem = (row: StoredPerson): PersonItem =>
  personItemSchema.parse(
    row.person !== null && row.person_key !== null
      ? {
          index: row.idx,
          person: JSON.parse(row.person),
          personKey: row.person_key,
          hashes: row.hashes === null ? undefined : JSON.parse(row.hashes),
        }
      : { index: row.idx, input: JSON.parse(row.input) },
  );

/**
 * An item of a batch kept in a jurisdiction travels as its index only: the queue is
 * not held to one, so no person goes through it, and the consumer reads the people
 * from the batch object (its answer to `stillPending`).
 */
const indexOnlySchema = z.object({ index: z.number().int().nonnegative() });

/** An item as a message carries it: with its person, or (a batch kept in a jurisdiction) its index only. */
export const messageItemSchema = z.union([personItemSchema, indexOnlySchema]);
export type MessageItem = z.infer<typeof messageItemSchema>;

/** What goes on the queue for `items` of batch `batchId`: ids only for a batch kept in a jurisdiction. */
export const queuedItems = (batchId: string, items: MessageItem[]): MessageItem[] =>
  jurisdictionOfBatch(batchId) ? items.map(({ index }) => ({ index })) : items;

export const messageBatchSchema = z.object({
  batchId: z.string(),
  /** The batch's owner, whose result-cache entries its items may use; absent in messages of older deploys. */
  customerId: z.string().optional(),
  environment: z.enum(ENVIRONMENTS),
  fields: z.array(z.enum(CONTACT_FIELDS)),
  /** The submit's maxAgeDays; absent in messages of older deploys and for batches from before (the default). */
  maxAgeDays: z.number().int().nonnegative().optional(),
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

/**
 * One queue message: up to ITEMS_PER_MESSAGE items of one batch (see
 * `packMessages`). Deploys before grouping sent one item per message, with its
 * `index` at the top level; such a message is read as a group of one.
 */
export const itemMessageSchema = z.preprocess(
  (body) => (isSingleItemMessage(body) ? asGroupOfOne(body) : body),
  messageBatchSchema.extend({
    items: z.array(messageItemSchema).min(1),
    /**
     * Attempts its items made before this message: set when the consumer sends a message
     * again because our rate governor held its items back (that attempt did not count).
     */
    attemptsBefore: z.number().int().nonnegative().optional(),
  }),
);
export type ItemMessage = z.infer<typeof itemMessageSchema>;

const isSingleItemMessage = (body: unknown): body is Record<string, unknown> =>
  typeof body === "object" && body !== null && !("items" in body) && "index" in body;

function asGroupOfOne({ batchId, customerId, environment, fields, ...item }: Record<string, unknown>) {
  return { batchId, customerId, environment, fields, items: [item] };
}

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
