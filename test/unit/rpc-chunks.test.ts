import { describe, expect, it } from "vitest";
import { chunkByCloneBytes, cloneBytes } from "../../src/batch/rpc-chunks";

describe("a value's size in a structured clone", () => {
  it("counts a string at 1 byte a character when every character is at most U+00FF", () => {
    expect(cloneBytes("é".repeat(100))).toBe(cloneBytes("e".repeat(100)));
  });

  it("counts a whole string at 2 bytes a UTF-16 unit once one character is above U+00FF", () => {
    expect(cloneBytes(`Ж${"a".repeat(99)}`) - cloneBytes("")).toBe(200);
    expect(cloneBytes("🙂".repeat(10)) - cloneBytes("")).toBe(40);
  });

  it("adds up objects and arrays, keys included", () => {
    expect(cloneBytes({ name: "ab" })).toBeGreaterThan(cloneBytes("name") + cloneBytes("ab"));
    expect(cloneBytes(["ab", "cd"])).toBeGreaterThan(2 * cloneBytes("ab"));
  });
});

describe("items cut into calls", () => {
  it("keeps them in one chunk while they fit", () => {
    expect(chunkByCloneBytes(["a", "b", "c"], 1_000)).toEqual([["a", "b", "c"]]);
  });

  it("cuts them, in order and each once, into chunks within the budget", () => {
    const items = Array.from({ length: 100 }, (_, i) => `Ж${i}`.padEnd(50, "x"));
    const chunks = chunkByCloneBytes(items, 1_000);
    expect(chunks.flat()).toEqual(items);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks)
      expect(chunk.reduce((sum, item) => sum + cloneBytes(item), 0)).toBeLessThanOrEqual(1_000);
  });

  it("sends an item larger than the budget alone rather than lose it", () => {
    expect(chunkByCloneBytes(["a", "x".repeat(500), "b"], 100)).toEqual([["a"], ["x".repeat(500)], ["b"]]);
  });
});
