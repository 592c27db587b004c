import { describe, expect, it } from "vitest";
import { decodeItemCursor, encodeItemCursor } from "../../src/http/item-cursor";

describe("page cursors", () => {
  it.each([0, 1, 999, 1000, 123_456])("round-trip index %i", (index) => {
    expect(decodeItemCursor(encodeItemCursor(index))).toBe(index);
  });

  it("are opaque url-safe strings", () => {
    expect(encodeItemCursor(1000)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each(["", "abc", "!!!", "aTotMQ", btoa("x:5"), btoa("i:05"), btoa("i:1e3"), "a".repeat(41)])(
    "reject %j",
    (cursor) => {
      expect(decodeItemCursor(cursor)).toBeNull();
    },
  );
});
