import { describe, expect, it } from "vitest";
import { normalizePerson, personKey } from "../../src/contact-info/person";
import { PermanentProviderError, TransientProviderError } from "../../src/enrichment/provider";
import { sandboxProvider } from "../../src/enrichment/sandbox-provider";

const find = (input: Record<string, string>, attempt = 1, fields: ("email" | "phone")[] = ["email", "phone"]) => {
  const person = normalizePerson(input);
  return sandboxProvider.find({ person, personKey: personKey(person), fields, attempt });
};

describe("the sandbox provider", () => {
  it("gives the same answer for the same input", async () => {
    const input = { firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" };
    expect(await find(input)).toEqual(await find({ ...input, companyDomain: "ANALYTICAL.example " }));
  });

  it("derives a work address on a reserved .example domain", async () => {
    const { emails } = await find({ firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.com" });
    expect(emails[0]).toMatchObject({ address: "ada.lovelace@analytical.example", type: "work", source: "sandbox" });
  });

  it("only ever returns fictional 555-01xx phone numbers in E.164", async () => {
    for (let i = 0; i < 30; i++) {
      const { phones } = await find({ fullName: `Person ${i}`, companyName: "Acme" });
      for (const phone of phones) expect(phone.number).toMatch(/^\+1\d{3}55501\d{2}$/);
    }
  });

  it("returns only the requested fields", async () => {
    const result = await find({ email: "grace@navy.example" }, 1, ["email"]);
    expect(result.phones).toEqual([]);
    expect(result.emails.length).toBeGreaterThan(0);
  });

  it("finds nothing for notfound.test", async () => {
    expect(await find({ fullName: "No Body", companyDomain: "notfound.test" })).toEqual({ emails: [], phones: [] });
  });

  it("fails every attempt for fail.test as a processing fault, not as a source outage", async () => {
    for (const attempt of [1, 2, 5]) {
      const error = await find({ fullName: "A B", companyDomain: "fail.test" }, attempt).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(TransientProviderError);
      expect(error).not.toBeInstanceOf(PermanentProviderError);
    }
  });

  it("is unavailable on every attempt for unavailable.test", async () => {
    for (const attempt of [1, 2, 5]) {
      await expect(find({ fullName: "A B", companyDomain: "unavailable.test" }, attempt)).rejects.toBeInstanceOf(
        TransientProviderError,
      );
    }
  });

  it("fails only the first attempt for flaky.test", async () => {
    await expect(find({ fullName: "A B", companyDomain: "flaky.test" }, 1)).rejects.toBeInstanceOf(
      TransientProviderError,
    );
    expect((await find({ fullName: "A B", companyDomain: "flaky.test" }, 2)).emails.length).toBeGreaterThan(0);
  });

  it("keeps confidences within 0..100", async () => {
    for (let i = 0; i < 30; i++) {
      const { emails, phones } = await find({ linkedinUrl: `https://linkedin.com/in/person-${i}` });
      for (const { confidence } of [...emails, ...phones]) {
        expect(confidence).toBeGreaterThanOrEqual(0);
        expect(confidence).toBeLessThanOrEqual(100);
      }
    }
  });
});
