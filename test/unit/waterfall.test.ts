import { describe, expect, it } from "vitest";
import type { Email } from "../../src/contact-info/contact";
import { mergeContacts } from "../../src/contact-info/contact";
import { personKey } from "../../src/contact-info/person";
import { VendorBudgetExhaustedError } from "../../src/enrichment/ceiling-gate";
import {
  type ContactProvider,
  type FindResult,
  PermanentProviderError,
  TransientProviderError,
  unconfiguredProvider,
} from "../../src/enrichment/provider";
import { runWaterfall } from "../../src/enrichment/waterfall";

const email = (address: string, confidence: number, source: string): Email => ({
  address,
  type: "work",
  status: "unknown",
  confidence,
  source,
});

function provider(name: string, answer: FindResult | Error, calls: string[] = []): ContactProvider {
  return {
    name,
    async find() {
      calls.push(name);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

const person = { fullName: "ada lovelace", companyDomain: "a.example" };
const request = { person, personKey: personKey(person), fields: ["email", "phone"] as const, attempt: 1 };
const phone = { number: "+12025550100", type: "mobile" as const, confidence: 80, source: "b" };

describe("the waterfall", () => {
  it("asks providers in order and stops once every requested field is satisfied", async () => {
    const calls: string[] = [];
    const result = await runWaterfall(
      [
        provider("a", { emails: [email("ada@a.example", 90, "a")], phones: [] }, calls),
        provider("b", { emails: [], phones: [phone] }, calls),
        provider("c", { emails: [email("x@a.example", 99, "c")], phones: [] }, calls),
      ],
      request,
      70,
    );
    expect(calls).toEqual(["a", "b"]);
    expect(result.satisfied).toBe(true);
    expect(result.reports.map((r) => [r.name, r.outcome])).toEqual([
      ["a", "found"],
      ["b", "found"],
      ["c", "skipped"],
    ]);
  });

  it("keeps asking while values are below the satisfying confidence", async () => {
    const calls: string[] = [];
    await runWaterfall(
      [
        provider("guess", { emails: [email("a@a.example", 35, "guess")], phones: [] }, calls),
        provider("vendor", { emails: [], phones: [] }, calls),
      ],
      { ...request, fields: ["email"] },
      70,
    );
    expect(calls).toEqual(["guess", "vendor"]);
  });

  it("gives a different answer when the order changes", async () => {
    const first = provider("first", { emails: [email("first@a.example", 90, "first")], phones: [] });
    const second = provider("second", { emails: [email("second@a.example", 95, "second")], phones: [] });
    const onlyEmail = { ...request, fields: ["email"] as const };
    expect((await runWaterfall([first, second], onlyEmail, 70)).emails.map((e) => e.source)).toEqual(["first"]);
    expect((await runWaterfall([second, first], onlyEmail, 70)).emails.map((e) => e.source)).toEqual(["second"]);
  });

  it("passes over a failing provider so the others still answer", async () => {
    const result = await runWaterfall(
      [
        provider("down", new TransientProviderError("503", 7)),
        provider("broken", new PermanentProviderError("401")),
        provider("ok", { emails: [email("a@a.example", 90, "ok")], phones: [phone] }),
      ],
      request,
      70,
    );
    expect(result).toMatchObject({ satisfied: true, transientFailures: 1, retryAfterSeconds: 7 });
    expect(result.reports.map((r) => [r.name, r.outcome])).toEqual([
      ["down", "unavailable"],
      ["broken", "unavailable"],
      ["ok", "found"],
    ]);
  });

  it("reports a provider that answered with nothing as not_found", async () => {
    const result = await runWaterfall([provider("empty", { emails: [], phones: [] })], request, 70);
    expect(result.reports.map((r) => [r.name, r.outcome])).toEqual([["empty", "not_found"]]);
  });

  it("reports a provider that found only fields nobody asked for as not_found", async () => {
    const result = await runWaterfall(
      [provider("phones", { emails: [], phones: [phone] })],
      { ...request, fields: ["email"] },
      70,
    );
    expect(result.reports.map((r) => [r.name, r.outcome])).toEqual([["phones", "not_found"]]);
  });

  it("reports an unconfigured provider skipped without asking it, and asks the next", async () => {
    const calls: string[] = [];
    const result = await runWaterfall(
      [unconfiguredProvider("hunter"), provider("pdl", { emails: [], phones: [phone] }, calls)],
      { ...request, fields: ["phone"] },
      70,
    );
    expect(calls).toEqual(["pdl"]);
    expect(result.reports.map((r) => [r.name, r.outcome])).toEqual([
      ["hunter", "skipped"],
      ["pdl", "found"],
    ]);
    expect(result.transientFailures).toBe(0);
  });

  it("reports a vendor at its daily ceiling skipped, with that reason, counts no failure, and asks the next", async () => {
    const calls: string[] = [];
    const result = await runWaterfall(
      [
        provider("hunter", new VendorBudgetExhaustedError("hunter: at its ceiling of 5000 calls today"), calls),
        provider("pdl", { emails: [email("ada@a.example", 90, "pdl")], phones: [phone] }, calls),
      ],
      request,
      70,
    );
    expect(calls).toEqual(["hunter", "pdl"]);
    expect(result.reports.map(({ name, outcome, reason }) => ({ name, outcome, reason }))).toEqual([
      { name: "hunter", outcome: "skipped", reason: "vendor_budget_exhausted" },
      { name: "pdl", outcome: "found", reason: undefined },
    ]);
    expect(result).toMatchObject({ satisfied: true, transientFailures: 0, held: 0 });
  });

  it("throws an error that is no provider error: a fault of ours is not a source outage", async () => {
    const bug = new TypeError("cannot read properties of undefined");
    await expect(
      runWaterfall([provider("buggy", bug), provider("ok", { emails: [], phones: [] })], request, 70),
    ).rejects.toBe(bug);
  });

  it("keeps only the requested fields", async () => {
    const result = await runWaterfall(
      [provider("a", { emails: [email("a@a.example", 90, "a")], phones: [phone] })],
      { ...request, fields: ["phone"] },
      70,
    );
    expect(result.emails).toEqual([]);
    expect(result.phones).toEqual([phone]);
  });
});

describe("merging results", () => {
  it("keeps one entry per address, case-insensitively, with the best confidence and its source", () => {
    const merged = mergeContacts(
      { emails: [email("Ada@a.example", 60, "pattern"), email("b@a.example", 50, "pattern")], phones: [phone] },
      { emails: [email("ada@a.example", 92, "hunter")], phones: [{ ...phone, confidence: 70, source: "c" }] },
    );
    expect(merged.emails.map((e) => [e.address.toLowerCase(), e.confidence, e.source])).toEqual([
      ["ada@a.example", 92, "hunter"],
      ["b@a.example", 50, "pattern"],
    ]);
    expect(merged.phones).toEqual([phone]);
  });
});
