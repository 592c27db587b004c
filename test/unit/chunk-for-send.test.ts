import { describe, expect, it } from "vitest";
import { MAX_FIELD_LENGTH, normalizePerson, type PersonInput, personKey } from "../../src/contact-info/person";
import {
  chunkForSend,
  encodeMessage,
  type ItemMessage,
  MAX_BYTES_PER_SEND,
  MAX_MESSAGE_BYTES,
  MESSAGE_OVERHEAD_BYTES,
  messageBytes,
  sendSplitting,
} from "../../src/queue/item-message";

// A message as the fan-out builds it: the normalized person and its key.
const itemMessage = (index: number, input: PersonInput): ItemMessage => {
  const person = normalizePerson(input);
  return { batchId: "b", index, environment: "test", fields: ["email", "phone"], person, personKey: personKey(person) };
};

const message = (index: number, padding = 0) => itemMessage(index, { fullName: "x".repeat(padding), companyName: "c" });

// Every text field of the person at its maximum length, in a script whose characters take 3 (CJK) or 4 (emoji) UTF-8 bytes.
const wide = (index: number, unit: string) => {
  const value = unit.repeat(MAX_FIELD_LENGTH / unit.length);
  return itemMessage(index, { firstName: value, lastName: value, fullName: value, companyName: value });
};

const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

describe("chunking messages for sendBatch", () => {
  it("puts at most 100 messages in a chunk", () => {
    const chunks = chunkForSend(Array.from({ length: 250 }, (_, i) => message(i)));
    expect(chunks.map((chunk) => chunk.length)).toEqual([100, 100, 50]);
  });

  it("keeps each chunk under the byte budget and the order intact", () => {
    const messages = Array.from({ length: 100 }, (_, i) => message(i, 4000));
    const chunks = chunkForSend(messages);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(JSON.stringify(chunk).length).toBeLessThan(MAX_BYTES_PER_SEND + 1000);
    expect(chunks.flat().map((m) => m.index)).toEqual(messages.map((m) => m.index));
  });

  it.each([
    ["CJK (3 bytes each)", "字"],
    ["emoji (4 bytes each)", "😀"],
  ])("measures %s as UTF-8 bytes, as the queue does, with headroom per message", (_, unit) => {
    const messages = Array.from({ length: 100 }, (_, i) => wide(i, unit));
    expect(messageBytes(messages[0]!)).toBe(utf8(messages[0]) + MESSAGE_OVERHEAD_BYTES);
    const chunks = chunkForSend(messages);
    for (const chunk of chunks) {
      expect(chunk.reduce((sum, m) => sum + utf8(m) + MESSAGE_OVERHEAD_BYTES, 0)).toBeLessThanOrEqual(MAX_BYTES_PER_SEND);
    }
    // Counted in UTF-16 code units these would fit in far fewer chunks than their bytes need.
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(messages.reduce((sum, m) => sum + utf8(m), 0) / MAX_BYTES_PER_SEND));
    expect(chunks.flat().map((m) => m.index)).toEqual(messages.map((m) => m.index));
  });

  it.each([
    ["ASCII", message(0, 40)],
    ["CJK", wide(1, "字")],
    ["emoji", wide(2, "😀")],
  ])("encodes a message (%s) once: the JSON sent is the message, and its size is that JSON's UTF-8 bytes", (_, sent) => {
    const { json, bytes } = encodeMessage(sent);
    expect(JSON.parse(json)).toEqual(sent);
    expect(bytes).toBe(new TextEncoder().encode(json).byteLength + MESSAGE_OVERHEAD_BYTES);
    expect(messageBytes(sent)).toBe(bytes);
  });

  it("never builds a message the queue could refuse for its size from a valid item", () => {
    // The worst case per character: a control character, escaped as \u0000 in JSON.
    expect(messageBytes(wide(0, "\u0001"))).toBeLessThan(MAX_MESSAGE_BYTES);
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
