import { describe, expect, it } from "vitest";
import { asciiWord, firstAndLast } from "../../src/contact-info/names";
import { asciiDomain, asciiEmail, linkedinSlug, normalizePerson, personKey } from "../../src/contact-info/person";
import { toE164 } from "../../src/contact-info/phone";
import { applyPattern, detectPattern, dominantPattern, EMAIL_PATTERNS } from "../../src/enrichment/email-patterns";

describe("phone numbers", () => {
  it.each([
    ["+1 (202) 555-0101", "+12025550101"],
    ["+44 20 7946 0101", "+442079460101"],
    ["0061 491 570 101", "+61491570101"],
    ["+1.202.555.0101", "+12025550101"],
  ])("normalize %s to E.164", (raw, e164) => expect(toE164(raw)).toBe(e164));

  it.each(["202-555-0101", "+0 123 456 789", "+1 23", "call me", "+1234567890123456"])("refuse %s", (raw) =>
    expect(toE164(raw)).toBeNull(),
  );
});

describe("names", () => {
  it("fold accents and punctuation", () => expect(asciiWord("Zoë O'Néil")).toBe("zoeoneil"));
  it("take the first and last words of a full name", () =>
    expect(firstAndLast({ fullName: "Ada King Lovelace" })).toEqual({ first: "ada", last: "lovelace" }));
  it("need two words", () => expect(firstAndLast({ fullName: "Cher" })).toBeNull());
});

describe("email patterns", () => {
  it("detect every pattern they can apply", () => {
    for (const pattern of EMAIL_PATTERNS)
      expect(detectPattern("ada", "lovelace", applyPattern(pattern, "ada", "lovelace"))).toBe(pattern);
  });

  it("find the pattern most samples follow", () => {
    expect(dominantPattern(["flast", "first.last", "flast"])).toEqual({ pattern: "flast", samples: 2 });
  });
});

describe("domains", () => {
  it.each([
    ["Example.COM", "example.com"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["BÜCHER.example", "xn--bcher-kva.example"],
    ["例え.jp", "xn--r8jz45g.jp"],
  ])("%s in ASCII form is %s", (raw, ascii) => expect(asciiDomain(raw)).toBe(ascii));

  it.each([
    "example.com.",
    "a..example",
    "bü cher.example",
    "bücher.example/x",
    "user@bücher.example",
    "bü%63her.example",
    "bü\u0000cher.example",
    "b\ud800.example",
    "127.0.0.1",
    "",
  ])("refuse %j", (raw) => expect(asciiDomain(raw)).toBeNull());
});

describe("email addresses", () => {
  it("keep the local part and put the domain in ASCII form", () =>
    expect(asciiEmail("Jane@Bücher.example")).toBe("jane@xn--bcher-kva.example"));
  it.each([
    "a\u0000b@example.com",
    "a\u007fb@example.com",
    "a\u0085b@example.com",
    "\ud800@example.com",
    "a b@example.com",
    "a@b@example.com",
  ])("refuse %j", (raw) => expect(asciiEmail(raw)).toBeNull());
});

describe("LinkedIn slugs", () => {
  it("decode well-formed escapes", () =>
    expect(linkedinSlug("https://www.linkedin.com/in/J%C3%BCrgen/")).toBe("jürgen"));
  it.each(["%zz", "ab%", "%ff", "a%e2%82", "a%00b", "a%2fb"])("are null, never a throw, for /in/%s", (slug) =>
    expect(linkedinSlug(`https://www.linkedin.com/in/${slug}`)).toBeNull(),
  );
});

describe("a normalized person", () => {
  it("holds domains in ASCII form, so IDN and punycode spellings are one person", () => {
    const unicode = normalizePerson({
      fullName: "Jane Doe",
      companyDomain: "Bücher.example",
      email: "Jane@bücher.example",
    });
    expect(unicode).toMatchObject({ companyDomain: "xn--bcher-kva.example", email: "jane@xn--bcher-kva.example" });
    expect(
      normalizePerson({
        fullName: "Jane Doe",
        companyDomain: "xn--bcher-kva.example",
        email: "jane@XN--BCHER-KVA.example",
      }),
    ).toEqual(unicode);
  });

  // Stored with every item and hashed into result-cache keys and the sandbox's seed: its form must never change.
  it("has one key: its entries in key order, as JSON", () => {
    const full = normalizePerson({
      linkedinUrl: "https://www.linkedin.com/in/jane-doe",
      email: "jane@acme.example",
      lastName: "Doe",
      fullName: "Jane Doe",
      firstName: "Jane",
      companyName: "Acme",
      companyDomain: "acme.example",
    });
    expect(personKey(full)).toBe(
      '[["companyDomain","acme.example"],["companyName","acme"],["email","jane@acme.example"],["firstName","jane"],["fullName","jane doe"],["lastName","doe"],["linkedinSlug","jane-doe"]]',
    );
    expect(personKey({ lastName: "doe", firstName: "jane" })).toBe('[["firstName","jane"],["lastName","doe"]]');
    expect(personKey({})).toBe("[]");
  });
});
