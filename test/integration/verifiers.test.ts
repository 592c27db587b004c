import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/base/config";
import type { Email } from "../../src/contact-info/contact";
import { normalizePerson } from "../../src/contact-info/person";
import { neverBounceVerifier } from "../../src/enrichment/neverbounce-verifier";
import { PermanentProviderError, TransientProviderError } from "../../src/enrichment/provider";
import { verifiersFor } from "../../src/enrichment/providers";
import { readVendorConfig } from "../../src/enrichment/vendor-config";
import type { VerdictCache } from "../../src/enrichment/verdict-cache";
import { verifyEmails } from "../../src/enrichment/verification";
import type { EmailVerifier } from "../../src/enrichment/verifier";
import { unconfiguredVerifier } from "../../src/enrichment/verifier";
import { zeroBounceVerifier } from "../../src/enrichment/zerobounce-verifier";
import { callsMentioning, FAKE_KEYS } from "../fakes/upstreams";
import { envWith } from "../helpers";

// The verifiers are the fakes of test/fakes/upstreams.ts, answering as each vendor documents.
const upstream = { fetch: (input: Request | string | URL, init?: RequestInit) => fetch(input, init), timeoutMs: 500 };
const zeroBounce = zeroBounceVerifier(FAKE_KEYS.zerobounce, "https://zerobounce.test", upstream);
const neverBounce = neverBounceVerifier(FAKE_KEYS.neverbounce, "https://neverbounce.test", upstream);
const person = normalizePerson({ fullName: "Ada Lovelace", companyDomain: "acme.example" });
const email = (address: string): Email => ({
  address,
  type: "work",
  status: "unverified",
  confidence: 90,
  source: "hunter",
});
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the verifier to fail");
    },
    (error: unknown) => error as Error,
  );

describe.each([
  ["ZeroBounce", zeroBounce],
  ["NeverBounce", neverBounce],
])("the %s adapter", (_, verifier) => {
  it.each([
    ["ada@acme.example", { result: "valid", role: false }],
    ["ada@x-undeliverable.example", { result: "invalid", role: false }],
    ["ada@x-disposable.example", { result: "invalid", role: false }],
    ["ada@x-spamtrap.example", { result: "invalid", role: false }],
    ["ada@x-catchall.example", { result: "catch_all", role: false }],
    ["ada@x-unknown.example", { result: "unknown", role: false }],
    ["info@acme.example", { result: "valid", role: true }],
  ])("judges %s from the vendor's documented answer", async (address, verdict) => {
    expect(await verifier.verify(address, person)).toEqual(verdict);
  });

  it("treats throttling as transient", async () => {
    expect(await failure(verifier.verify("ada@x-throttled.example", person))).toBeInstanceOf(TransientProviderError);
  });
});

describe("vendor failures", () => {
  it("ZeroBounce's 5xx is transient; its 200 with an error (bad key, no credits) is permanent", async () => {
    expect(await failure(zeroBounce.verify("ada@x-zbdown.example", person))).toBeInstanceOf(TransientProviderError);
    const badKey = zeroBounceVerifier("wrong", "https://zerobounce.test", upstream);
    expect(await failure(badKey.verify("ada@acme.example", person))).toBeInstanceOf(PermanentProviderError);
  });

  it("NeverBounce's temp_unavail is transient; its auth_failure permanent", async () => {
    expect(await failure(neverBounce.verify("ada@x-verifiersdown.example", person))).toBeInstanceOf(
      TransientProviderError,
    );
    const badKey = neverBounceVerifier("wrong", "https://neverbounce.test", upstream);
    expect(await failure(badKey.verify("ada@acme.example", person))).toBeInstanceOf(PermanentProviderError);
  });
});

describe("verifying an item's emails", () => {
  const both = [zeroBounce, neverBounce];

  it("gives each the first verifier's verdict that tells, and reports each verifier", async () => {
    const { emails, reports } = await verifyEmails(
      [email("ada@acme.example"), email("ada@x-catchall.example")],
      person,
      {
        verifiers: both,
      },
    );
    expect(emails.map((e) => [e.address, e.status])).toEqual([
      ["ada@acme.example", "valid"],
      ["ada@x-catchall.example", "catch_all"],
    ]);
    expect(reports).toEqual([
      { name: "zerobounce", outcome: "found", kind: "verifier" },
      { name: "neverbounce", outcome: "skipped", kind: "verifier" },
    ]);
  });

  it("never returns an address a verifier calls invalid, disposable or a spam trap", async () => {
    const found = [
      "ada@x-undeliverable.example",
      "ada@x-disposable.example",
      "ada@x-spamtrap.example",
      "ada@acme.example",
    ];
    const { emails } = await verifyEmails(found.map(email), person, { verifiers: both });
    expect(emails.map((e) => e.address)).toEqual(["ada@acme.example"]);
  });

  it("asks the next verifier when one is down", async () => {
    const { emails, reports } = await verifyEmails([email("ada@x-zbdown.example")], person, { verifiers: both });
    expect(emails[0]).toMatchObject({ status: "valid" });
    expect(reports.map((r) => r.outcome)).toEqual(["unavailable", "found"]);
  });

  it("makes an address unknown, never invalid, when every verifier is out", async () => {
    const { emails, reports } = await verifyEmails([email("ada@x-verifiersdown.example")], person, { verifiers: both });
    expect(emails).toEqual([{ ...email("ada@x-verifiersdown.example"), status: "unknown" }]);
    expect(reports.map((r) => r.outcome)).toEqual(["unavailable", "unavailable"]);
  });

  it("flags a role address", async () => {
    const { emails } = await verifyEmails([email("sales@acme.example")], person, { verifiers: [neverBounce] });
    expect(emails[0]).toMatchObject({ status: "valid", role: true });
  });

  it("leaves emails unverified when no verifier is configured", async () => {
    const { emails, reports } = await verifyEmails([email("ada@acme.example")], person, {
      verifiers: [unconfiguredVerifier("zerobounce")],
    });
    expect(emails[0]!.status).toBe("unverified");
    expect(reports).toEqual([{ name: "zerobounce", outcome: "skipped", kind: "verifier" }]);
  });

  it("reuses a cached verdict, and caches only verdicts on addresses it returns", async () => {
    const entries = new Map<
      string,
      { result: "valid" | "catch_all" | "unknown" | "invalid"; role: boolean; verifier: string; verifiedAt: string }
    >();
    const cache: VerdictCache = {
      get: async (address) => entries.get(address) ?? null,
      put: async (address, verdict, verifier, verifiedAt) => {
        if (verdict.result === "valid" || verdict.result === "catch_all")
          entries.set(address, { ...verdict, verifier, verifiedAt });
      },
    };
    const counting: EmailVerifier = { name: "counting", verify: (address, p) => zeroBounce.verify(address, p) };
    await verifyEmails([email("cache.me@acme.example"), email("ada@x-undeliverable.example")], person, {
      verifiers: [counting],
      cache,
    });
    expect([...entries.keys()]).toEqual(["cache.me@acme.example"]);
    // Asked about this address only: other files' batches may call ZeroBounce meanwhile.
    const before = await callsMentioning("zerobounce.test", "cache.me");
    const { emails } = await verifyEmails([email("cache.me@acme.example")], person, { verifiers: [counting], cache });
    expect(emails[0]!.status).toBe("valid");
    expect(await callsMentioning("zerobounce.test", "cache.me")).toBe(before);
  });
});

describe("the configured verifiers", () => {
  it("follow ENRICHMENT_VERIFIERS order, a verifier without its secret kept but unconfigured", () => {
    const noZeroBounce = envWith({ ENRICHMENT_VERIFIERS: "neverbounce, zerobounce", ZEROBOUNCE_API_KEY: undefined });
    expect(
      verifiersFor("live", noZeroBounce, readConfig(noZeroBounce)).map((v) => [v.name, v.configured ?? true]),
    ).toEqual([
      ["neverbounce", true],
      ["zerobounce", false],
    ]);
  });

  it("may be none", () => {
    const none = envWith({ ENRICHMENT_VERIFIERS: "" });
    expect(verifiersFor("live", none, readConfig(none))).toEqual([]);
  });

  it("are only the sandbox's in test", () => {
    expect(verifiersFor("test", env, readConfig(env)).map((v) => v.name)).toEqual(["sandbox"]);
  });

  it("refuse an unknown verifier name", () => {
    expect(() => readVendorConfig(envWith({ ENRICHMENT_VERIFIERS: "zerobounce,kickbox" }))).toThrow(/kickbox/);
  });
});
