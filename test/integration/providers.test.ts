import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import sample from "../../directory/sample.csv?raw";
import { readConfig } from "../../src/base/config";
import { normalizePerson, type PersonInput, personKey } from "../../src/contact-info/person";
import type { DirectoryEntry } from "../../src/enrichment/directory";
import { directoryProvider } from "../../src/enrichment/directory";
import { directoryWrites, parseDirectoryFile, toDirectoryEntry } from "../../src/enrichment/directory-import";
import { hunterProvider } from "../../src/enrichment/hunter-provider";
import { patternProvider } from "../../src/enrichment/pattern-provider";
import { pdlProvider } from "../../src/enrichment/pdl-provider";
import { type ContactProvider, PermanentProviderError, TransientProviderError } from "../../src/enrichment/provider";
import { providersFor } from "../../src/enrichment/providers";
import { VendorAnswerError } from "../../src/enrichment/upstream";
import { readVendorConfig } from "../../src/enrichment/vendor-config";
import { callsMentioning } from "../fakes/upstreams";
import { envWith } from "../helpers";

// Vendors and DNS are the fakes of test/fakes/upstreams.ts, reached over real fetch.
const upstream = { fetch: (input: Request | string | URL, init?: RequestInit) => fetch(input, init), timeoutMs: 500 };
const hunter = hunterProvider("test-hunter-key", "https://hunter.test", upstream);
const pdl = pdlProvider("test-pdl-key", "https://pdl.test", upstream);
const pattern = patternProvider(env.DIRECTORY, "https://doh.test/dns-query", upstream);

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

beforeAll(async () => {
  const entries = parseDirectoryFile(sample, "csv").rows.map(
    ({ record }) => toDirectoryEntry(record) as DirectoryEntry,
  );
  await Promise.all(directoryWrites(entries).map(({ key, value }) => env.DIRECTORY.put(key, value)));
});

describe("the directory provider", () => {
  const directory = directoryProvider(env.DIRECTORY);

  it.each([
    ["a LinkedIn URL", { linkedinUrl: "https://www.linkedin.com/in/avery-quill-example" }],
    ["an email", { email: "Avery.Quill@example.com" }],
    ["a name and company domain", { firstName: "Avery", lastName: "Quill", companyDomain: "example.com" }],
  ])("finds a person by %s", async (_, input) => {
    const { emails, phones } = await find(directory, input);
    expect(emails[0]).toMatchObject({ address: "avery.quill@example.com", source: "directory" });
    expect(phones.map((p) => p.number)).toEqual(["+12025550101", "+12025550150"]);
  });

  it("finds nothing for someone it does not hold", async () => {
    expect(await find(directory, { email: "stranger@example.com" })).toEqual({ emails: [], phones: [] });
  });

  it("is unavailable (transient), not a fault of ours, when its KV namespace fails", async () => {
    const failingKv = { get: () => Promise.reject(new Error("KV GET failed: 503")) } as unknown as KVNamespace;
    expect(await failure(find(directoryProvider(failingKv), { email: "someone@example.com" }))).toBeInstanceOf(
      TransientProviderError,
    );
  });
});

describe("the pattern provider", () => {
  it("uses the pattern the directory taught for the domain, unverified (the verifiers judge it)", async () => {
    const { emails } = await find(pattern, { firstName: "Grace", lastName: "Hopper", companyDomain: "example.org" });
    expect(emails).toEqual([
      { address: "ghopper@example.org", type: "work", status: "unverified", confidence: 75, source: "pattern" },
    ]);
  });

  it("falls back to first.last with a low confidence, unverified", async () => {
    const { emails } = await find(pattern, { fullName: "Grace Hopper", companyDomain: "unlearned.example" });
    expect(emails[0]).toMatchObject({
      address: "grace.hopper@unlearned.example",
      status: "unverified",
      confidence: 35,
    });
  });

  it.each(["gone.nxdomain.example", "nullmx.example"])(
    "finds no address when %s cannot receive mail",
    async (domain) => {
      expect(await find(pattern, { fullName: "Grace Hopper", companyDomain: domain })).toEqual({
        emails: [],
        phones: [],
      });
    },
  );

  it("treats a failing resolver as transient", async () => {
    expect(
      await failure(find(pattern, { fullName: "Grace Hopper", companyDomain: "servfail.example" })),
    ).toBeInstanceOf(TransientProviderError);
  });

  it("caches MX answers", async () => {
    await find(pattern, { fullName: "A B", companyDomain: "cached-mx.example" });
    // Asked about this domain only: other files' look-ups may reach the resolver meanwhile.
    const before = await callsMentioning("doh.test", "cached-mx.example");
    await find(pattern, { fullName: "C D", companyDomain: "cached-mx.example" });
    expect(await callsMentioning("doh.test", "cached-mx.example")).toBe(before);
  });
});

describe("the Hunter adapter", () => {
  it("maps a found address and its score; the status is left to the verifiers", async () => {
    const { emails } = await find(hunter, { firstName: "Ada", lastName: "Lovelace", companyDomain: "acme.example" });
    expect(emails).toEqual([
      { address: "ada.lovelace@acme.example", type: "work", status: "unverified", confidence: 92, source: "hunter" },
    ]);
  });

  it("does not take an address Hunter's own check calls invalid", async () => {
    expect(await find(hunter, { fullName: "Ada Lovelace", companyDomain: "x-hunterinvalid.example" })).toEqual({
      emails: [],
      phones: [],
    });
  });

  it("answers not found when Hunter finds no address", async () => {
    expect(await find(hunter, { fullName: "Ada Lovelace", companyDomain: "hunter-notfound.example" })).toEqual({
      emails: [],
      phones: [],
    });
  });

  it("treats Hunter's rate limit (403) as transient and honours Retry-After", async () => {
    const error = await failure(find(hunter, { fullName: "Ada Lovelace", companyDomain: "hunter-ratelimit.example" }));
    expect(error).toBeInstanceOf(TransientProviderError);
    expect((error as TransientProviderError).retryAfterSeconds).toBe(1);
  });

  it("succeeds on a retry after a 5xx", async () => {
    const input = { fullName: "Flaky Person", companyDomain: "hunter-flaky.example" };
    expect(await failure(find(hunter, input))).toBeInstanceOf(TransientProviderError);
    expect((await find(hunter, input)).emails).toHaveLength(1);
  });

  it("gives up on a slow answer after the timeout", async () => {
    const error = await failure(find(hunter, { fullName: "Slow Person", companyDomain: "hunter-slow.example" }));
    expect(error).toBeInstanceOf(TransientProviderError);
    expect(error.message).toContain("500 ms");
  });

  it("is unavailable, for now, when it answers a body that is not JSON (the vendor's fault)", async () => {
    const error = await failure(find(hunter, { fullName: "A B", companyDomain: "hunter-garbage.example" }));
    expect(error).toBeInstanceOf(VendorAnswerError);
    expect(error).toBeInstanceOf(TransientProviderError);
  });

  it("reports a rejected API key as permanent", async () => {
    const wrongKey = hunterProvider("wrong", "https://hunter.test", upstream);
    expect(await failure(find(wrongKey, { fullName: "A B", companyDomain: "acme.example" }))).toBeInstanceOf(
      PermanentProviderError,
    );
  });
});

describe("the People Data Labs adapter", () => {
  it("maps emails and phones, in E.164, with confidence from likelihood", async () => {
    const { emails, phones } = await find(pdl, {
      firstName: "Ada",
      lastName: "Lovelace",
      companyDomain: "acme.example",
    });
    expect(emails).toEqual([
      { address: "ada.lovelace@acme.example", type: "work", status: "unverified", confidence: 80, source: "pdl" },
      { address: "adalovelace@mail.example", type: "personal", status: "unverified", confidence: 80, source: "pdl" },
    ]);
    expect(phones.map((p) => [p.number, p.type])).toEqual([
      ["+12025550199", "mobile"],
      ["+12025550199", "unknown"],
      ["+12025550188", "unknown"],
    ]);
  });

  it("answers not found on PDL's 404", async () => {
    expect(await find(pdl, { fullName: "Ada Lovelace", companyDomain: "pdl-notfound.example" })).toEqual({
      emails: [],
      phones: [],
    });
  });

  it("treats 429 as transient, with the wait from x-ratelimit-reset", async () => {
    const error = (await failure(
      find(pdl, { fullName: "Ada Lovelace", companyDomain: "pdl-ratelimit.example" }),
    )) as TransientProviderError;
    expect(error).toBeInstanceOf(TransientProviderError);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(2);
  });

  it("treats a 5xx as transient", async () => {
    expect(await failure(find(pdl, { fullName: "Ada Lovelace", companyDomain: "pdl-down.example" }))).toBeInstanceOf(
      TransientProviderError,
    );
  });
});

describe("the configured providers", () => {
  it("follow ENRICHMENT_PROVIDERS order", () => {
    const ordered = envWith({ ENRICHMENT_PROVIDERS: "pdl, directory" });
    expect(providersFor("live", ordered, readConfig(ordered)).map((p) => p.name)).toEqual(["pdl", "directory"]);
  });

  it("keep a vendor whose secret is not set, marked unconfigured so items report it skipped", () => {
    const noSecrets = envWith({
      HUNTER_API_KEY: undefined,
      PDL_API_KEY: undefined,
      APOLLO_API_KEY: undefined,
      PROSPEO_API_KEY: undefined,
    });
    expect(providersFor("live", noSecrets, readConfig(noSecrets)).map((p) => [p.name, p.configured ?? true])).toEqual([
      ["directory", true],
      ["pattern", true],
      ["hunter", false],
      ["pdl", false],
      ["apollo", false],
      ["prospeo", false],
    ]);
  });

  it("are only the sandbox in test", () => {
    expect(providersFor("test", env, readConfig(env)).map((p) => p.name)).toEqual(["sandbox"]);
  });

  it("refuse an unknown provider name", () => {
    expect(() => readVendorConfig(envWith({ ENRICHMENT_PROVIDERS: "directory,clearbit" }))).toThrow(/clearbit/);
  });
});
