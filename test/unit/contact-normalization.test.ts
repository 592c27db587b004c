import { describe, expect, it } from "vitest";
import { toE164 } from "../../src/contact-info/phone";
import { applyPattern, detectPattern, dominantPattern, EMAIL_PATTERNS } from "../../src/enrichment/email-patterns";
import { asciiWord, firstAndLast } from "../../src/enrichment/names";

describe("phone numbers", () => {
  it.each([
    ["+1 (202) 555-0101", "+12025550101"],
    ["+44 20 7946 0101", "+442079460101"],
    ["0061 491 570 101", "+61491570101"],
    ["+1.202.555.0101", "+12025550101"],
  ])("normalize %s to E.164", (raw, e164) => expect(toE164(raw)).toBe(e164));

  it.each(["202-555-0101", "+0 123 456 789", "+1 23", "call me", "+1234567890123456"])("refuse %s", (raw) => expect(toE164(raw)).toBeNull());
});

describe("names", () => {
  it("fold accents and punctuation", () => expect(asciiWord("Zoë O'Néil")).toBe("zoeoneil"));
  it("take the first and last words of a full name", () => expect(firstAndLast({ fullName: "Ada King Lovelace" })).toEqual({ first: "ada", last: "lovelace" }));
  it("need two words", () => expect(firstAndLast({ fullName: "Cher" })).toBeNull());
});

describe("email patterns", () => {
  it("detect every pattern they can apply", () => {
    for (const pattern of EMAIL_PATTERNS) expect(detectPattern("ada", "lovelace", applyPattern(pattern, "ada", "lovelace"))).toBe(pattern);
  });

  it("find the pattern most samples follow", () => {
    expect(dominantPattern(["flast", "first.last", "flast"])).toEqual({ pattern: "flast", samples: 2 });
  });
});
