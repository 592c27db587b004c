import { describe, expect, it } from "vitest";
import { MAX_FIELD_LENGTH, normalizePerson, type PersonInput, personKey } from "../../src/contact-info/person";
import {
  chunkForSend,
  ITEMS_PER_MESSAGE,
  itemMessageSchema,
  MAX_BYTES_PER_SEND,
  MAX_MESSAGE_BYTES,
  MAX_MESSAGES_PER_SEND,
  MESSAGE_OVERHEAD_BYTES,
  MESSAGE_TARGET_BYTES,
  type MessageBatchFields,
  type MessageItem,
  type PersonItem,
  packMessages,
  queuedItems,
  sendSplitting,
} from "../../src/queue-messages/item-message";

const batch: MessageBatchFields = {
  batchId: "b",
  customerId: "cus_1",
  environment: "test",
  fields: ["email", "phone"],
  maxAgeDays: 90,
};

// Hashes as the submit makes them are opaque to the queue: short texts do here.
const hashes = { person: "p", keys: ["k"] };

// An item as the fan-out builds it: the normalized person, its key and its hashes.
const item = (index: number, input: PersonInput): PersonItem => {
  const person = normalizePerson(input);
  return { index, person, personKey: personKey(person), hashes };
};

const small = (index: number, padding = 0) => item(index, { fullName: `x${"x".repeat(padding)}`, companyName: "c" });

// Every text field of the person at its maximum length, in a script whose characters take 3 (CJK) or 4 (emoji) UTF-8 bytes.
const wide = (index: number, unit: string) => {
  const value = unit.repeat(MAX_FIELD_LENGTH / unit.length);
  return item(index, { firstName: value, lastName: value, fullName: value, companyName: value });
};

const utf8 = (text: string) => new TextEncoder().encode(text).byteLength;
const indexes = (items: readonly MessageItem[]) => items.map(({ index }) => index);
const range = (length: number) => Array.from({ length }, (_, i) => i);

describe("packing a batch's items into messages", () => {
  it(`puts up to ${ITEMS_PER_MESSAGE} items in a message, in order`, () => {
    const items = range(25).map((i) => small(i));
    const { messages, tooLarge } = packMessages(batch, items);
    expect(messages.map((message) => message.items.length)).toEqual([10, 10, 5]);
    expect(messages.flatMap((message) => indexes(message.items))).toEqual(range(25));
    expect(tooLarge).toEqual([]);
  });

  it.each([
    ["ASCII", range(12).map((i) => small(i, 40))],
    ["CJK", range(12).map((i) => wide(i, "字"))],
    ["emoji", range(12).map((i) => wide(i, "😀"))],
  ])(
    "builds each message's JSON once (%s): the text sent is the message the consumer reads, its size that text's UTF-8 bytes",
    (_, items) => {
      const { messages } = packMessages(batch, items);
      for (const message of messages) {
        expect(message.bytes).toBe(utf8(message.json) + MESSAGE_OVERHEAD_BYTES);
        const read = itemMessageSchema.parse(JSON.parse(message.json));
        expect(read).toEqual({ ...batch, items: message.items });
      }
    },
  );

  it.each([
    ["CJK (3 bytes each)", "字"],
    ["emoji (4 bytes each)", "😀"],
    ["control characters (escaped, 6 bytes each)", "\u0001"],
  ])("keeps a message of wide items (%s) within one 64 KB billing unit", (_, unit) => {
    const items = range(30).map((i) => wide(i, unit));
    const { messages } = packMessages(batch, items);
    expect(messages.length).toBeGreaterThan(30 / ITEMS_PER_MESSAGE);
    for (const message of messages) expect(message.bytes).toBeLessThanOrEqual(MESSAGE_TARGET_BYTES);
    expect(messages.flatMap((message) => indexes(message.items))).toEqual(range(30));
  });

  it("never builds a message the queue could refuse for its size from valid items", () => {
    // The worst case per character: a control character, escaped as \u0001 in JSON.
    const { messages, tooLarge } = packMessages(batch, [wide(0, "\u0001")]);
    expect(tooLarge).toEqual([]);
    expect(messages[0]!.bytes).toBeLessThan(MAX_MESSAGE_BYTES);
  });

  it("gives an item over the billing unit, but within the queue's limit, a message of its own", () => {
    const large: MessageItem = {
      index: 1,
      person: { fullName: "x".repeat(MESSAGE_TARGET_BYTES) },
      personKey: "k",
      hashes,
    };
    const { messages, tooLarge } = packMessages(batch, [small(0), large, small(2)]);
    expect(tooLarge).toEqual([]);
    expect(messages.map((message) => indexes(message.items))).toEqual([[0], [1], [2]]);
    expect(messages[1]!.bytes).toBeGreaterThan(MESSAGE_TARGET_BYTES);
    expect(messages[1]!.bytes).toBeLessThan(MAX_MESSAGE_BYTES);
  });

  it("sets apart an item too large to be queued even alone, and packs the others around it", () => {
    const huge: MessageItem = { index: 1, person: { fullName: "x".repeat(MAX_MESSAGE_BYTES) }, personKey: "k", hashes };
    const { messages, tooLarge } = packMessages(batch, [small(0), huge, small(2)]);
    expect(indexes(tooLarge)).toEqual([1]);
    expect(messages.flatMap((message) => indexes(message.items))).toEqual([0, 2]);
  });
});

describe("reading a message", () => {
  it("refuses a message with no items", () => {
    expect(itemMessageSchema.safeParse({ ...batch, items: [] }).success).toBe(false);
  });

  it("refuses what the fan-out never sends: an item naming a person without its hashes, a batch without its owner", () => {
    const { hashes: _, ...unhashed } = small(0);
    expect(itemMessageSchema.safeParse({ ...batch, items: [unhashed] }).success).toBe(false);
    const { customerId: __, ...ownerless } = batch;
    expect(itemMessageSchema.safeParse({ ...ownerless, items: [small(0)] }).success).toBe(false);
  });
});

describe("chunking messages for sendBatch", () => {
  it(`puts at most ${MAX_MESSAGES_PER_SEND} messages in a chunk`, () => {
    const { messages } = packMessages(
      batch,
      range(2500).map((i) => small(i)),
    );
    const chunks = chunkForSend(messages);
    expect(chunks.map((chunk) => chunk.length)).toEqual([100, 100, 50]);
  });

  it("keeps each chunk within the byte budget, as the queue counts bytes, and the order intact", () => {
    const { messages } = packMessages(
      batch,
      range(300).map((i) => wide(i, "😀")),
    );
    const chunks = chunkForSend(messages);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.reduce((sum, message) => sum + utf8(message.json) + MESSAGE_OVERHEAD_BYTES, 0)).toBeLessThanOrEqual(
        MAX_BYTES_PER_SEND,
      );
    }
    // Counted in UTF-16 code units these would fit in far fewer chunks than their bytes need.
    const total = messages.reduce((sum, message) => sum + utf8(message.json), 0);
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(total / MAX_BYTES_PER_SEND));
    expect(chunks.flat().flatMap((message) => indexes(message.items))).toEqual(range(300));
  });
});

describe("sending a chunk the queue refuses", () => {
  const refusingOver = (limit: number) => {
    const sent: number[][] = [];
    const tried: number[][] = [];
    const send = async (chunk: number[]) => {
      tried.push(chunk);
      if (chunk.length > limit) throw new Error("Unknown Internal Error (15000)");
      sent.push(chunk);
    };
    return { sent, tried, send };
  };

  it("splits it in halves until the queue accepts, in order, never resending a refused chunk as is", async () => {
    const queue = refusingOver(30);
    await sendSplitting(
      Array.from({ length: 100 }, (_, i) => i),
      queue.send,
    );
    expect(queue.sent.flat()).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(queue.sent.every((chunk) => chunk.length <= 30)).toBe(true);
    const keys = queue.tried.map((chunk) => chunk.join(","));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("throws when the queue refuses even a single message (an outage, not a size)", async () => {
    const queue = refusingOver(0);
    await expect(sendSplitting([1, 2, 3], queue.send)).rejects.toThrow("15000");
    expect(queue.sent).toEqual([]);
  });
});

describe("a batch kept in a jurisdiction", () => {
  it("sends its items as indexes only: no person goes through the queue", () => {
    const items = [small(0), small(1)];
    const eu = { ...batch, batchId: "eu-3e1cab3a-0527-4fea-987c-d486f470829c", customerId: "cus_1" };
    const [message] = packMessages(eu, queuedItems(eu.batchId, items)).messages;
    expect(JSON.parse(message!.json)).toEqual({ ...eu, items: [{ index: 0 }, { index: 1 }] });
    expect(itemMessageSchema.parse(JSON.parse(message!.json)).items).toEqual([{ index: 0 }, { index: 1 }]);
    // Any other batch's items carry their people, as before.
    expect(queuedItems("3e1cab3a-0527-4fea-987c-d486f470829c", items)).toEqual(items);
  });
});
