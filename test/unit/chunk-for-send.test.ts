import { describe, expect, it } from "vitest";
import { chunkForSend, type ItemMessage, MAX_BYTES_PER_SEND } from "../../src/queue/item-message";

const message = (index: number, padding = 0): ItemMessage => ({
  batchId: "b",
  index,
  environment: "test",
  fields: ["email"],
  input: { fullName: "x".repeat(padding), companyName: "c" },
});

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
});
