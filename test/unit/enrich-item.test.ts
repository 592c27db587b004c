import { describe, expect, it } from "vitest";
import { personKey } from "../../src/contact-info/person";
import { itemCharge } from "../../src/credits/credits";
import { VendorBudgetExhaustedError } from "../../src/enrichment/ceiling-gate";
import { type EnrichOptions, enrichItem } from "../../src/enrichment/enricher";
import type { SourcedResult } from "../../src/enrichment/item-decision";
import {
  type ContactProvider,
  type FindResult,
  PermanentProviderError,
  TransientProviderError,
} from "../../src/enrichment/provider";
import type { ResultCache } from "../../src/enrichment/result-cache";
import type { EmailVerifier, VerdictResult } from "../../src/enrichment/verifier";

const found: FindResult = {
  emails: [{ address: "ada@a.example", type: "work", status: "unverified", confidence: 90, source: "ok" }],
  phones: [],
};
const weak: FindResult = {
  emails: [{ address: "ada@a.example", type: "work", status: "unverified", confidence: 35, source: "guess" }],
  phones: [],
};

const judging = (result: VerdictResult): EmailVerifier => ({
  name: "judge",
  verify: async () => ({ result, role: false }),
});
const answering = (name: string, result: FindResult): ContactProvider => ({ name, find: async () => result });
const failing = (name: string, error: Error): ContactProvider => ({ name, find: async () => Promise.reject(error) });

function memoryCache(): Pick<ResultCache, "get"> & { entries: Map<string, SourcedResult> } {
  const entries = new Map<string, SourcedResult>();
  return { entries, get: async (key) => entries.get(key) ?? null };
}

const person = { fullName: "ada lovelace", companyDomain: "a.example" };
const request = (attempt = 1) => ({
  person,
  personKey: personKey(person),
  fields: ["email"] as const,
  attempt,
});
const options = (providers: ContactProvider[], extra: Partial<EnrichOptions> = {}): EnrichOptions => ({
  providers,
  verification: { verifiers: [] },
  satisfiedConfidence: 70,
  maxAttempts: 3,
  ...extra,
});

describe("deciding an item", () => {
  it("completes when the requested fields are found", async () => {
    expect(await enrichItem(request(), options([answering("ok", found)]))).toMatchObject({
      kind: "record",
      result: {
        status: "completed",
        outcome: "found",
        emails: found.emails,
        fromCache: false,
        sources: [{ name: "ok", outcome: "found" }],
      },
    });
  });

  it("completes as not found when every provider answered and none found", async () => {
    expect(await enrichItem(request(), options([answering("a", { emails: [], phones: [] })]))).toMatchObject({
      kind: "record",
      result: { status: "completed", outcome: "not_found", emails: [], phones: [] },
    });
  });

  it("retries while a provider failed transiently, with its Retry-After", async () => {
    const resolution = await enrichItem(
      request(1),
      options([answering("guess", weak), failing("vendor", new TransientProviderError("429", 30))]),
    );
    expect(resolution).toMatchObject({ kind: "retry", retryAfterSeconds: 30 });
  });

  it("completes with what was found on the last attempt, the outage shown in its sources", async () => {
    const resolution = await enrichItem(
      request(3),
      options([answering("guess", weak), failing("vendor", new TransientProviderError("503"))]),
    );
    expect(resolution).toMatchObject({
      kind: "record",
      result: {
        status: "completed",
        outcome: "found",
        emails: weak.emails,
        sources: [
          { name: "guess", outcome: "found" },
          { name: "vendor", outcome: "unavailable" },
        ],
      },
    });
  });

  it("fails with source_unavailable, not not_found, when nothing was found and a source was down at the last attempt", async () => {
    const resolution = await enrichItem(
      request(3),
      options([
        answering("directory", { emails: [], phones: [] }),
        failing("vendor", new TransientProviderError("503")),
      ]),
    );
    expect(resolution).toEqual({
      kind: "record",
      result: {
        status: "failed",
        error: { code: "source_unavailable", message: expect.stringContaining("resubmit the item later") },
        sources: [
          { name: "directory", outcome: "not_found" },
          { name: "vendor", outcome: "unavailable" },
        ],
      },
      reports: expect.any(Array),
      calls: [
        { name: "directory", ms: expect.any(Number), domain: "a.example" },
        { name: "vendor", ms: expect.any(Number), domain: "a.example" },
      ],
    });
  });

  it("fails at once with source_unavailable when a provider refused permanently and nothing was found: retrying cannot help", async () => {
    const resolution = await enrichItem(
      request(1),
      options([
        answering("directory", { emails: [], phones: [] }),
        failing("vendor", new PermanentProviderError("401")),
      ]),
    );
    expect(resolution).toMatchObject({
      kind: "record",
      result: { status: "failed", error: { code: "source_unavailable" } },
    });
  });

  it("serves a cached result, with the sources it came from, without asking any provider", async () => {
    const cache = memoryCache();
    const sources = [
      { name: "directory", outcome: "found" as const },
      { name: "hunter", outcome: "skipped" as const },
    ];
    cache.entries.set("k", { ...found, sources });
    const resolution = await enrichItem(
      request(),
      options([failing("vendor", new Error("must not be called"))], { cache: { store: cache, key: "k" } }),
    );
    expect(resolution).toMatchObject({
      kind: "record",
      result: { status: "completed", outcome: "found", fromCache: true, emails: found.emails, sources },
    });
  });

  it("gives full answers, and only those, the key they were looked up by (the batch caches what it records)", async () => {
    const cache = { cache: { store: memoryCache(), key: "result:live:cus:email:h" } };
    const full = await enrichItem(request(), options([answering("ok", found)], cache));
    expect(full).toMatchObject({
      kind: "record",
      result: { status: "completed", cacheKey: "result:live:cus:email:h" },
    });
    // Where no cache may be used (the sandbox, a message without its customer), no key.
    const uncached = await enrichItem(request(), options([answering("ok", found)]));
    expect(uncached.kind === "record" && "cacheKey" in uncached.result).toBe(false);
    const partial = await enrichItem(
      request(3),
      options([answering("guess", weak), failing("vendor", new TransientProviderError("503"))], cache),
    );
    expect(partial).toMatchObject({ kind: "record", result: { status: "completed" } });
    expect(partial.kind === "record" && "cacheKey" in partial.result).toBe(false);
  });

  it("never gives a cache key to an answer a source was unavailable for, even one that retrying cannot change", async () => {
    const refused = await enrichItem(
      request(1),
      options([
        answering("directory", { emails: [], phones: [] }),
        failing("vendor", new PermanentProviderError("401")),
      ]),
    );
    expect(refused).toMatchObject({ kind: "record", result: { status: "failed" } });
    expect(refused.kind === "record" && "cacheKey" in refused.result).toBe(false);
  });

  it("never gives a cached result a cache key again", async () => {
    const cache = memoryCache();
    cache.entries.set("k", { ...found, sources: [{ name: "ok", outcome: "found" }] });
    const served = await enrichItem(request(), options([], { cache: { store: cache, key: "k" } }));
    expect(served).toMatchObject({ kind: "record", result: { fromCache: true } });
    expect(served.kind === "record" && "cacheKey" in served.result).toBe(false);
  });
});

describe("verifying an item's emails", () => {
  it("completes as not_found when the verifier calls every found email invalid", async () => {
    const resolution = await enrichItem(
      request(),
      options([answering("ok", found)], { verification: { verifiers: [judging("invalid")] } }),
    );
    expect(resolution).toMatchObject({
      kind: "record",
      result: {
        status: "completed",
        outcome: "not_found",
        emails: [],
        sources: [
          { name: "ok", outcome: "found" },
          { name: "judge", outcome: "found", kind: "verifier" },
        ],
      },
    });
  });

  it("verifies what a retry keeps for the item's end", async () => {
    const resolution = await enrichItem(
      request(1),
      options([answering("guess", weak), failing("vendor", new TransientProviderError("429"))], {
        verification: { verifiers: [judging("catch_all")] },
      }),
    );
    expect(resolution).toMatchObject({
      kind: "retry",
      found: { emails: [{ ...weak.emails[0], status: "catch_all" }] },
    });
  });

  it("gives no cache key to an answer a verifier could not judge", async () => {
    const down: EmailVerifier = { name: "down", verify: () => Promise.reject(new TransientProviderError("503")) };
    const resolution = await enrichItem(
      request(),
      options([answering("ok", found)], { verification: { verifiers: [down] } }),
    );
    expect(resolution).toMatchObject({ kind: "record", result: { emails: [{ status: "unknown" }] } });
    expect(resolution.kind === "record" && "cacheKey" in resolution.result).toBe(false);
  });

  it("passes a verifier at its daily ceiling over for the next, reports it, and charges it nothing", async () => {
    const spent: EmailVerifier = {
      name: "zerobounce",
      verify: () => Promise.reject(new VendorBudgetExhaustedError("zerobounce: at its ceiling of 0 calls today")),
    };
    const cache = memoryCache();
    for (const [verifiers, status] of [
      [[spent, judging("valid")], "valid"],
      [[spent], "unknown"],
    ] as const) {
      const resolution = await enrichItem(
        request(),
        options([answering("ok", found)], { verification: { verifiers }, cache: { store: cache, key: "k" } }),
      );
      expect(resolution).toMatchObject({ kind: "record", result: { outcome: "found", emails: [{ status }] } });
      if (resolution.kind !== "record" || resolution.result.status !== "completed") throw new Error("not completed");
      expect(resolution.result.sources).toContainEqual({
        name: "zerobounce",
        outcome: "skipped",
        kind: "verifier",
        reason: "vendor_budget_exhausted",
      });
      // Its verification is not charged (only a verifier that judged is), and the answer is not cached.
      expect(itemCharge({ index: 0, ...resolution.result }, { email: 1, phone: 10, verification: 1 })).toBe(
        verifiers.length === 1 ? 1 : 2,
      );
      expect("cacheKey" in resolution.result).toBe(false);
    }
  });
});
