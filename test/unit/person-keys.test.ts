import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/base/sha256";
import { firstAndLast } from "../../src/contact-info/names";
import { normalizePerson, type PersonInput } from "../../src/contact-info/person";
import { identifierKeys, personHasher, storedItemKeys } from "../../src/contact-info/person-keys";
import { envWith } from "../helpers";

const keysOf = (input: PersonInput) => identifierKeys(normalizePerson(input));
const shareAKey = (a: PersonInput, b: PersonInput) => keysOf(a).some((key) => keysOf(b).includes(key));

describe("a person's identifier keys", () => {
  it("give one key per identifier the person carries", () => {
    expect(keysOf({ email: "a@example.com" })).toHaveLength(1);
    expect(keysOf({ linkedinUrl: "https://www.linkedin.com/in/ada-l" })).toHaveLength(1);
    expect(
      keysOf({ fullName: "Ada Lovelace", companyDomain: "analytical.example", companyName: "Analytical" }),
    ).toHaveLength(2);
    expect(
      keysOf({
        email: "a@example.com",
        linkedinUrl: "https://linkedin.com/in/ada-l",
        firstName: "Ada",
        lastName: "L",
        companyDomain: "x.example",
      }),
    ).toHaveLength(3);
    // A name without a company identifies no one.
    expect(keysOf({ firstName: "Ada", lastName: "Lovelace" })).toEqual([]);
  });

  it("find an item given with more fields, or written differently, by any one identifier", () => {
    const item = keysOf({
      externalId: "crm-1",
      firstName: "Ada",
      lastName: "Lovelace",
      companyDomain: "Analytical.Example",
      email: "Ada@Analytical.example",
    });
    for (const asked of [
      { email: " ada@analytical.example " },
      { fullName: "ada   lovelace", companyDomain: "analytical.example" },
      { firstName: "ADA", lastName: "lovelace", companyDomain: "ANALYTICAL.example" },
    ]) {
      expect(item).toEqual(expect.arrayContaining(keysOf(asked)));
    }
    expect(item).not.toEqual(expect.arrayContaining(keysOf({ email: "ada@other.example" })));
    expect(keysOf({ fullName: "Ada Lovelace", companyName: "Analytical" })).not.toEqual(
      keysOf({ fullName: "Ada Lovelace", companyDomain: "analytical.example" }),
    );
  });

  it("index an item with both a full name and first + last names under each (the finders ask with first + last)", () => {
    const item = { fullName: "Supp Other", firstName: "Supp", lastName: "Hunter", companyDomain: "x.example" };
    expect(shareAKey(item, { firstName: "Supp", lastName: "Hunter", companyDomain: "x.example" })).toBe(true);
    expect(shareAKey(item, { fullName: "Supp Other", companyDomain: "x.example" })).toBe(true);
  });

  it("fold names as the finders do: accents, case, composition, middle names", () => {
    const nfc = "Zoë Ünal".normalize("NFC");
    const nfd = "Zoë Ünal".normalize("NFD");
    expect(nfc).not.toBe(nfd);
    expect(
      shareAKey({ fullName: nfc, companyDomain: "x.example" }, { fullName: nfd, companyDomain: "x.example" }),
    ).toBe(true);
    expect(
      shareAKey(
        { fullName: nfc, companyDomain: "x.example" },
        { firstName: "zoe", lastName: "UNAL", companyDomain: "x.example" },
      ),
    ).toBe(true);
    expect(
      shareAKey(
        { fullName: "Ada King Lovelace", companyDomain: "x.example" },
        { fullName: "Ada Lovelace", companyDomain: "x.example" },
      ),
    ).toBe(true);
    expect(
      shareAKey(
        { fullName: "Ada Lovelace", companyDomain: "x.example" },
        { fullName: "Ada Byron", companyDomain: "x.example" },
      ),
    ).toBe(false);
  });

  it("find a LinkedIn profile however its slug's letters were composed or escaped", () => {
    const nfc = `https://www.linkedin.com/in/${encodeURIComponent("zoë-ünal".normalize("NFC"))}`;
    const nfdEscaped = `https://www.linkedin.com/in/${encodeURIComponent("zoë-ünal".normalize("NFD"))}`;
    expect(nfc).not.toBe(nfdEscaped);
    expect(keysOf({ linkedinUrl: nfc })).toHaveLength(1);
    expect(keysOf({ linkedinUrl: nfc })).toEqual(keysOf({ linkedinUrl: nfdEscaped }));
  });

  it("keep a name in another script as written, however it was composed", () => {
    const name = "김 다은";
    expect(
      shareAKey(
        { fullName: name.normalize("NFC"), companyDomain: "x.example" },
        { fullName: name.normalize("NFD"), companyDomain: "x.example" },
      ),
    ).toBe(true);
    expect(
      shareAKey(
        { fullName: "김 다은", companyDomain: "x.example" },
        { fullName: "이 다은", companyDomain: "x.example" },
      ),
    ).toBe(false);
  });

  it("are shared by any two inputs a finder would ask about alike (property)", () => {
    // Words with accents (composed or not), apostrophes, case and other scripts.
    const word = fc
      .array(fc.constantFrom("a", "d", "Z", "o", "ë", "e\u0308", "Ü", "'", "-", "é", "ß", "l", "김", "ø"), {
        minLength: 1,
        maxLength: 6,
      })
      .map((letters) => letters.join(""));
    const name = fc.array(word, { minLength: 1, maxLength: 4 });
    // The same name given as first + last, as a full name, or as both (with another full name).
    const shapes = (words: string[], other: string[]): PersonInput[] => [
      { fullName: words.join(" ") },
      { fullName: words.join("  ").normalize("NFD") },
      {
        firstName: words[0],
        lastName: words.length > 1 ? words[words.length - 1] : undefined,
        fullName: other.join(" "),
      },
      { firstName: words[0]!.toUpperCase(), lastName: words.length > 1 ? words[words.length - 1] : undefined },
    ];
    fc.assert(
      fc.property(name, name, name, fc.nat(3), fc.nat(3), (words, otherA, otherB, shapeA, shapeB) => {
        const a = { ...shapes(words, otherA)[shapeA]!, companyDomain: "x.example" };
        const b = { ...shapes(words, otherB)[shapeB]!, companyDomain: "X.example" };
        const queryA = firstAndLast(normalizePerson(a));
        const queryB = firstAndLast(normalizePerson(b));
        if (queryA === null || queryB === null || queryA.first !== queryB.first || queryA.last !== queryB.last) return;
        expect(shareAKey(a, b)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("read a stored input, and refuse one that is not an item's", () => {
    expect(storedItemKeys(JSON.stringify({ email: "a@example.com", externalId: "x" }))?.keys).toEqual(
      keysOf({ email: "a@example.com" }),
    );
    expect(storedItemKeys(JSON.stringify({ email: 42 }))).toBeNull();
  });
});

describe("keyed hashes of identifier keys", () => {
  const customer = { customerId: "cust-a", environment: "live" } as const;
  const [key] = keysOf({ email: "a@example.com" });

  it("are 64 hex digits, the same each time for one customer, never the plain SHA-256", async () => {
    const [hash] = await personHasher(env, customer).hash([key!]);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await personHasher(env, customer).hash([key!])).toEqual([hash]);
    expect(hash).not.toBe(await sha256Hex(key!));
  });

  it("differ between customers, between environments and between secrets", async () => {
    const [hash] = await personHasher(env, customer).hash([key!]);
    expect(await personHasher(env, { ...customer, customerId: "cust-b" }).hash([key!])).not.toEqual([hash]);
    expect(await personHasher(env, { ...customer, environment: "test" }).hash([key!])).not.toEqual([hash]);
    const otherSecret = envWith({ PERSON_KEY_SECRET: "pks_anothersecret000000000000000000000000" });
    expect(await personHasher(otherSecret, customer).hash([key!])).not.toEqual([hash]);
  });

  it("need the secret: a missing or short one is refused", () => {
    // A deployment misconfigured in a way Env's type cannot see (wrangler.toml requires the secret).
    expect(() => personHasher(envWith({ PERSON_KEY_SECRET: undefined }), customer)).toThrow(/PERSON_KEY_SECRET/);
    expect(() => personHasher(envWith({ PERSON_KEY_SECRET: "short" }), customer)).toThrow(/PERSON_KEY_SECRET/);
  });
});
