import { describe, expect, it } from "vitest";
import { type EnrichOptions, enrichItem } from "../../src/enrichment/enrich-item";
import { type ContactProvider, type FindResult, PermanentProviderError, TransientProviderError } from "../../src/enrichment/provider";
import type { ResultCache } from "../../src/enrichment/result-cache";

const found: FindResult = {
  emails: [{ address: "ada@a.example", type: "work", status: "valid", confidence: 90, source: "ok" }],
  phones: [],
};
const weak: FindResult = {
  emails: [{ address: "ada@a.example", type: "work", status: "unknown", confidence: 35, source: "guess" }],
  phones: [],
};

const answering = (name: string, result: FindResult): ContactProvider => ({ name, find: async () => result });
const failing = (name: string, error: Error): ContactProvider => ({ name, find: async () => Promise.reject(error) });

function memoryCache(): ResultCache & { entries: Map<string, FindResult> } {
  const entries = new Map<string, FindResult>();
  return { entries, get: async (key) => entries.get(key) ?? null, put: async (key, result) => void entries.set(key, result) };
}

const request = (attempt = 1) => ({
  person: { fullName: "Ada Lovelace", companyDomain: "a.example" },
  fields: ["email"] as const,
  attempt,
});
const options = (providers: ContactProvider[], extra: Partial<EnrichOptions> = {}): EnrichOptions => ({
  providers,
  satisfiedConfidence: 70,
  maxAttempts: 3,
  ...extra,
});

describe("deciding an item", () => {
  it("completes when the requested fields are found", async () => {
    expect(await enrichItem(request(), options([answering("ok", found)]))).toMatchObject({
      kind: "record",
      result: { status: "completed", outcome: "found", emails: found.emails, fromCache: false },
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

  it("completes with what answered on the last attempt", async () => {
    const resolution = await enrichItem(
      request(3),
      options([answering("guess", weak), failing("vendor", new TransientProviderError("503"))]),
    );
    expect(resolution).toMatchObject({ kind: "record", result: { status: "completed", outcome: "found", emails: weak.emails } });
  });

  it("fails only when no provider answered on the last attempt", async () => {
    const resolution = await enrichItem(request(3), options([failing("vendor", new TransientProviderError("503"))]));
    expect(resolution).toMatchObject({ kind: "record", result: { status: "failed", error: { code: "processing_failed" } } });
  });

  it("fails at once when every provider refused permanently: retrying cannot help", async () => {
    const resolution = await enrichItem(request(1), options([failing("vendor", new PermanentProviderError("401"))]));
    expect(resolution).toMatchObject({ kind: "record", result: { status: "failed" } });
  });

  it("serves a cached result without asking any provider", async () => {
    const cache = memoryCache();
    cache.entries.set("k", found);
    const resolution = await enrichItem(
      request(),
      options([failing("vendor", new Error("must not be called"))], { cache: { store: cache, key: "k" } }),
    );
    expect(resolution).toMatchObject({
      kind: "record",
      result: { status: "completed", outcome: "found", fromCache: true, emails: found.emails },
    });
  });

  it("caches full answers only", async () => {
    const cache = memoryCache();
    await enrichItem(request(), options([answering("ok", found)], { cache: { store: cache, key: "full" } }));
    await enrichItem(
      request(3),
      options([answering("guess", weak), failing("vendor", new TransientProviderError("503"))], {
        cache: { store: cache, key: "partial" },
      }),
    );
    expect([...cache.entries.keys()]).toEqual(["full"]);
  });
});
