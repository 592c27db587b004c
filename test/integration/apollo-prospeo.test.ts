import { describe, expect, it } from "vitest";
import { normalizePerson, type PersonInput, personKey } from "../../src/contact-info/person";
import { apolloProvider } from "../../src/enrichment/apollo-provider";
import { prospeoProvider } from "../../src/enrichment/prospeo-provider";
import { type ContactProvider, PermanentProviderError, TransientProviderError } from "../../src/enrichment/provider";
import { FAKE_KEYS } from "../fakes/upstreams";

// Apollo and Prospeo are the fakes of test/fakes/upstreams.ts, answering as each vendor documents, reached over real fetch.
const upstream = { fetch: (input: Request | string | URL, init?: RequestInit) => fetch(input, init), timeoutMs: 500 };
const apollo = apolloProvider(FAKE_KEYS.apollo, "https://apollo.test", upstream);
const prospeo = prospeoProvider(FAKE_KEYS.prospeo, "https://prospeo.test", upstream);

const find = (provider: ContactProvider, input: PersonInput, fields: ("email" | "phone")[] = ["email", "phone"]) => {
  const person = normalizePerson(input);
  return provider.find({ person, personKey: personKey(person), fields, attempt: 1 });
};
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the provider to fail");
    },
    (error: unknown) => error as Error,
  );
const ada = (companyDomain: string): PersonInput => ({ firstName: "Ada", lastName: "Lovelace", companyDomain });

describe("the Apollo adapter", () => {
  it("maps a match's email (unverified, confident when Apollo verified it) and phones", async () => {
    expect(await find(apollo, ada("acme.example"))).toEqual({
      emails: [
        { address: "ada.lovelace@acme.example", type: "work", status: "unverified", confidence: 85, source: "apollo" },
      ],
      phones: [{ number: "+12025550142", type: "unknown", confidence: 60, source: "apollo" }],
    });
  });

  it("answers not found on a 200 with no person", async () => {
    expect(await find(apollo, ada("apollo-notfound.example"))).toEqual({ emails: [], phones: [] });
  });

  it("asks nothing without a name and company, a LinkedIn URL or an email", async () => {
    expect(await find(apollo, { fullName: "Ada Lovelace" })).toEqual({ emails: [], phones: [] });
  });

  it("treats its 429 as transient, with Retry-After", async () => {
    const error = (await failure(find(apollo, ada("apollo-ratelimit.example")))) as TransientProviderError;
    expect(error).toBeInstanceOf(TransientProviderError);
    expect(error.retryAfterSeconds).toBe(30);
  });

  it("treats a 5xx as transient and a rejected key as permanent", async () => {
    expect(await failure(find(apollo, ada("apollo-down.example")))).toBeInstanceOf(TransientProviderError);
    const badKey = apolloProvider("wrong", "https://apollo.test", upstream);
    expect(await failure(find(badKey, ada("acme.example")))).toBeInstanceOf(PermanentProviderError);
  });
});

describe("the Prospeo adapter", () => {
  it("maps a found email, unverified, confident when Prospeo found it VALID", async () => {
    expect(await find(prospeo, ada("acme.example"))).toEqual({
      emails: [
        { address: "ada.lovelace@acme.example", type: "work", status: "unverified", confidence: 85, source: "prospeo" },
      ],
      phones: [],
    });
  });

  it("answers not found on its 400 NO_RESULT", async () => {
    expect(await find(prospeo, ada("prospeo-notfound.example"))).toEqual({ emails: [], phones: [] });
  });

  it("asks nothing when no email is wanted", async () => {
    expect(await find(prospeo, ada("acme.example"), ["phone"])).toEqual({ emails: [], phones: [] });
  });

  it("treats its 429 as transient, with the wait from x-minute-reset-seconds", async () => {
    const error = (await failure(find(prospeo, ada("prospeo-ratelimit.example")))) as TransientProviderError;
    expect(error).toBeInstanceOf(TransientProviderError);
    expect(error.retryAfterSeconds).toBe(42);
  });

  it("treats a 5xx as transient and a rejected key (401) as permanent", async () => {
    expect(await failure(find(prospeo, ada("prospeo-down.example")))).toBeInstanceOf(TransientProviderError);
    const badKey = prospeoProvider("wrong", "https://prospeo.test", upstream);
    expect(await failure(find(badKey, ada("acme.example")))).toBeInstanceOf(PermanentProviderError);
  });
});
