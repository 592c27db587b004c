import { describe, expect, it } from "vitest";
import type { ItemOutcome } from "../../src/contact-info/batch-contract";
import { personKey } from "../../src/contact-info/person";
import { itemCharge } from "../../src/credits/credits";
import { type EnrichOptions, enrichItem } from "../../src/enrichment/enricher";
import { cachedFreshness, stampFound } from "../../src/enrichment/freshness";
import type { SourcedResult } from "../../src/enrichment/item-decision";
import type { ContactProvider } from "../../src/enrichment/provider";
import type { EmailVerifier } from "../../src/enrichment/verifier";

const DAY_MS = 86_400_000;
const now = Date.parse("2026-11-27T00:00:00.000Z");
const daysAgo = (days: number) => new Date(now - days * DAY_MS).toISOString();
const email = (verifiedAt?: string) => ({
  address: "ada@a.example",
  type: "work" as const,
  status: "valid" as const,
  confidence: 90,
  source: "hunter",
  ...(verifiedAt ? { verifiedAt } : {}),
});
const phone = (verifiedAt: string) => ({
  number: "+14155550132",
  type: "mobile" as const,
  confidence: 80,
  source: "pdl",
  verifiedAt,
});

describe("how fresh a cached result is", () => {
  it("serves a result whose every contact is younger than maxAgeDays", () => {
    expect(cachedFreshness({ emails: [email(daysAgo(89))], phones: [phone(daysAgo(90))] }, 90, now, true)).toBe(
      "fresh",
    );
  });

  it("verifies older emails again, or looks the person up again when nothing can verify them", () => {
    const old = { emails: [email(daysAgo(91))], phones: [phone(daysAgo(1))] };
    expect(cachedFreshness(old, 90, now, true)).toBe("reverify");
    expect(cachedFreshness(old, 90, now, false)).toBe("refind");
  });

  it("looks the person up again for an older phone (nothing verifies phones), for maxAgeDays 0, and for a contact of unknown age", () => {
    expect(cachedFreshness({ emails: [], phones: [phone(daysAgo(91))] }, 90, now, true)).toBe("refind");
    expect(cachedFreshness({ emails: [email(daysAgo(0))], phones: [] }, 0, now, true)).toBe("refind");
    expect(cachedFreshness({ emails: [email()], phones: [] }, 90, now, true)).toBe("reverify");
  });

  it("stamps what was found with the time it was found, and keeps a time already given", () => {
    expect(stampFound([email(), email(daysAgo(3))], daysAgo(0)).map((e) => e.verifiedAt)).toEqual([
      daysAgo(0),
      daysAgo(3),
    ]);
  });
});

describe("a cached result too old to serve", () => {
  const person = { fullName: "ada lovelace", companyDomain: "a.example" };
  const request = {
    person,
    personKey: personKey(person),
    fields: ["email", "phone"] as ("email" | "phone")[],
    attempt: 1,
  };
  const finderCalls: string[] = [];
  const finder: ContactProvider = {
    name: "hunter",
    find: async () => {
      finderCalls.push("hunter");
      return { emails: [email()], phones: [phone(daysAgo(0))] };
    },
  };
  const verifierCalls: string[] = [];
  const verifier: EmailVerifier = {
    name: "zerobounce",
    verify: async (address) => {
      verifierCalls.push(address);
      return { result: "valid", role: false };
    },
  };
  const cachedWith = (result: SourcedResult): EnrichOptions => ({
    providers: [finder],
    cache: { store: { get: async () => result }, key: "k" },
    verification: { verifiers: [verifier] },
    satisfiedConfidence: 70,
    maxAttempts: 3,
    maxAgeDays: 30,
  });
  const sources = [
    { name: "hunter", outcome: "found" as const },
    { name: "zerobounce", outcome: "found" as const, kind: "verifier" as const },
  ];

  it("has its emails verified again, not found again: from the cache, restamped, cacheable", async () => {
    finderCalls.length = 0;
    verifierCalls.length = 0;
    const cached = { emails: [email(daysAgo(40))], phones: [phone(daysAgo(10))], sources };
    const resolution = await enrichItem(request, cachedWith(cached));
    expect(finderCalls).toEqual([]);
    expect(verifierCalls).toEqual(["ada@a.example"]);
    if (resolution.kind !== "record" || resolution.result.status !== "completed") throw new Error("not recorded");
    expect(resolution.result).toMatchObject({ fromCache: true, reverified: true, cacheKey: "k", sources });
    expect(Date.now() - Date.parse(resolution.result.emails[0]?.verifiedAt ?? "")).toBeLessThan(60_000);
    expect(resolution.result.phones).toEqual(cached.phones);
  });

  it("is served as it is while young enough, and looked up again for maxAgeDays 0", async () => {
    verifierCalls.length = 0;
    finderCalls.length = 0;
    const young = { emails: [email(new Date().toISOString())], phones: [], sources };
    expect(await enrichItem(request, cachedWith(young))).toMatchObject({ result: { fromCache: true } });
    expect([...verifierCalls, ...finderCalls]).toEqual([]);
    const fresh = await enrichItem(request, { ...cachedWith(young), maxAgeDays: 0 });
    expect(fresh).toMatchObject({ result: { fromCache: false } });
    expect(finderCalls).toEqual(["hunter"]);
  });

  it("costs the verifications only", () => {
    const prices = { email: 1, phone: 10, verification: 2 };
    const outcome: ItemOutcome = {
      index: 0,
      status: "completed",
      outcome: "found",
      emails: [email(daysAgo(0))],
      phones: [phone(daysAgo(10))],
      fromCache: true,
      sources,
    };
    expect(itemCharge(outcome, prices)).toBe(0);
    expect(itemCharge({ ...outcome, reverified: true }, prices)).toBe(2);
    expect(itemCharge({ ...outcome, fromCache: false }, prices)).toBe(13);
  });
});
