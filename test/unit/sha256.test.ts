import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/base/sha256";

// Checked against a hasher nobody here wrote (node:crypto), on the texts and bytes we hash:
// keys with non-ASCII names, emails, the empty text, and every byte value of a digest.
describe("sha256Hex", () => {
  it("is SHA-256 in lower-case hex, of text as UTF-8 and of bytes", async () => {
    const texts = ["", "abc", '[["email","ada@example.com"]]', '[["fullName","zoë ångström"]]', "名前", "\u{1f600}"];
    for (const text of texts)
      expect(await sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
    const bytes = Uint8Array.from({ length: 512 }, (_, i) => (i * 37) % 256);
    expect(await sha256Hex(bytes)).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("spells every byte with two digits", async () => {
    // Enough inputs that digests hold each byte value, leading zeros included.
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const hex = await sha256Hex(`input ${i}`);
      expect(hex).toMatch(/^[0-9a-f]{64}$/);
      expect(hex).toBe(createHash("sha256").update(`input ${i}`).digest("hex"));
      for (let at = 0; at < 64; at += 2) seen.add(hex.slice(at, at + 2));
    }
    expect(seen.size).toBe(256);
  });
});
