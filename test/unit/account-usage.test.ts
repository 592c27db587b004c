import { describe, expect, it } from "vitest";
import { batchListPaging } from "../../src/account/list-query";
import { addUsage, emptyUsage, tally } from "../../src/account/usage";
import { parseUsageQuery } from "../../src/account/usage-query";
import { ApiError } from "../../src/http/problem";

const now = Date.parse("2026-11-22T12:00:00.000Z");

describe("tallying finished items", () => {
  it("counts a verifier apart from a finder of the same name", () => {
    const usage = emptyUsage();
    tally(
      usage,
      {
        index: 0,
        status: "completed",
        outcome: "found",
        emails: [{ address: "a@x.example", type: "work", status: "valid", confidence: 90, source: "sandbox" }],
        phones: [],
        sources: [
          { name: "sandbox", outcome: "found" },
          { name: "sandbox", outcome: "found", kind: "verifier" },
        ],
      },
      1,
    );
    expect(usage.sources).toEqual({
      sandbox: { calls: 1, found: 1, reported: 0, creditsRefunded: 0, verifiedValid: 1, rateLimited: 0 },
      "sandbox:verifier": { calls: 1, found: 1, reported: 0, creditsRefunded: 0, verifiedValid: 0, rateLimited: 0 },
    });
  });

  it("counts each item by its outcome, and each source asked (not skipped) once per reported item", () => {
    const usage = emptyUsage();
    tally(
      usage,
      {
        index: 0,
        status: "completed",
        outcome: "found",
        emails: [],
        phones: [],
        fromCache: true,
        sources: [
          { name: "directory", outcome: "not_found" },
          { name: "pattern", outcome: "found" },
          { name: "hunter", outcome: "skipped" },
        ],
      },
      3,
    );
    tally(usage, { index: 1, status: "completed", outcome: "not_found", emails: [], phones: [], sources: [] }, 1);
    tally(
      usage,
      {
        index: 2,
        status: "failed",
        error: { code: "source_unavailable", message: "later" },
        sources: [{ name: "directory", outcome: "unavailable" }],
      },
      1,
    );
    tally(usage, { index: 3, status: "failed", error: { code: "processing_failed", message: "x" }, sources: [] }, 0);
    expect(usage).toEqual({
      items: 5,
      found: 3,
      notFound: 1,
      failed: 1,
      fromCache: 3,
      credits: 0,
      creditsRefunded: 0,
      sources: {
        directory: { calls: 2, found: 0, reported: 0, creditsRefunded: 0, verifiedValid: 0, rateLimited: 0 },
        pattern: { calls: 1, found: 1, reported: 0, creditsRefunded: 0, verifiedValid: 0, rateLimited: 0 },
      },
      latencies: {},
      domains: {},
    });
  });

  it("sums usage and credits, source by source", () => {
    const total = emptyUsage();
    addUsage(total, {
      ...emptyUsage(),
      items: 2,
      found: 2,
      credits: 11,
      sources: { sandbox: { calls: 2, found: 2, reported: 0, creditsRefunded: 0, verifiedValid: 0, rateLimited: 0 } },
    });
    addUsage(total, {
      ...emptyUsage(),
      items: 1,
      failed: 1,
      credits: 1,
      creditsRefunded: 1,
      sources: {
        sandbox: { calls: 0, found: 0, reported: 1, creditsRefunded: 1, verifiedValid: 0, rateLimited: 0 },
        pdl: { calls: 1, found: 0, reported: 0, creditsRefunded: 0, verifiedValid: 0, rateLimited: 0 },
      },
    });
    expect(total).toEqual({
      ...emptyUsage(),
      items: 3,
      found: 2,
      failed: 1,
      credits: 12,
      creditsRefunded: 1,
      sources: {
        sandbox: { calls: 2, found: 2, reported: 1, creditsRefunded: 1, verifiedValid: 0, rateLimited: 0 },
        pdl: { calls: 1, found: 0, reported: 0, creditsRefunded: 0, verifiedValid: 0, rateLimited: 0 },
      },
    });
  });
});

describe("the usage range", () => {
  it("defaults to the last 30 UTC days, today included", () => {
    expect(parseUsageQuery({}, now)).toEqual({ from: "2026-10-24", to: "2026-11-22" });
    expect(parseUsageQuery({ to: "2026-03-01" }, now)).toEqual({ from: "2026-01-31", to: "2026-03-01" });
  });

  it("takes from and to as given, up to 366 days", () => {
    expect(parseUsageQuery({ from: "2024-01-01", to: "2024-12-31" }, now)).toEqual({
      from: "2024-01-01",
      to: "2024-12-31",
    });
    expect(parseUsageQuery({ from: "2026-11-22", to: "2026-11-22" }, now)).toEqual({
      from: "2026-11-22",
      to: "2026-11-22",
    });
  });

  it.each<Record<string, string>>([
    { from: "2025-01-01", to: "2026-01-02" },
    { from: "2026-11-23", to: "2026-11-22" },
    { from: "2026-02-30" },
    { from: "22-11-2026" },
    { to: "yesterday" },
    { days: "7" },
  ])("refuses %o with 400 invalid_query", (query) => {
    expect(() => parseUsageQuery(query, now)).toThrow(
      expect.objectContaining({ init: expect.objectContaining({ code: "invalid_query" }) }),
    );
  });
});

describe("the batch list query", () => {
  it("defaults to 20 from the newest", () => {
    expect(batchListPaging.parse({})).toEqual({ limit: 20, after: null });
  });

  it.each<Record<string, string>>([
    { limit: "0" },
    { limit: "101" },
    { limit: "x" },
    { cursor: "bogus" },
    { cursor: btoa("i:3") },
    { page: "2" },
  ])("refuses %o", (query) => {
    expect(() => batchListPaging.parse(query)).toThrow(ApiError);
  });
});
