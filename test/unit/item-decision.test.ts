import { describe, expect, it } from "vitest";
import { SOURCE_OUTCOMES, type SourceReport } from "../../src/contact-info/batch-views";
import { type AttemptFacts, decideItem, outcomeOf } from "../../src/enrichment/item-decision";

const email = {
  address: "ada@a.example",
  type: "work" as const,
  status: "valid" as const,
  confidence: 90,
  source: "hunter",
};
const source = (name: string, outcome: SourceReport["outcome"]): SourceReport => ({ name, outcome });

const facts = (over: Partial<AttemptFacts>): AttemptFacts => ({
  emails: [],
  phones: [],
  sources: [],
  satisfied: false,
  retryable: false,
  held: false,
  retryAfterSeconds: undefined,
  attempt: 1,
  maxAttempts: 3,
  ...over,
});

describe("deciding an item after an attempt", () => {
  it("completes not_found only when every source asked answered that it knows nothing", () => {
    const sources = [source("directory", "not_found"), source("pattern", "not_found"), source("hunter", "skipped")];
    expect(decideItem(facts({ sources }))).toEqual({
      kind: "record",
      result: { status: "completed", outcome: "not_found", emails: [], phones: [], fromCache: false, sources },
      cacheable: true,
    });
  });

  it("retries a not-found item while a source is unavailable before the last attempt", () => {
    const sources = [source("directory", "not_found"), source("hunter", "unavailable")];
    expect(decideItem(facts({ sources, retryable: true, retryAfterSeconds: 5, attempt: 2 }))).toEqual({
      kind: "retry",
      retryAfterSeconds: 5,
      held: false,
    });
  });

  it("fails with source_unavailable when nothing was found and a source was unavailable at the last attempt", () => {
    const sources = [source("directory", "not_found"), source("hunter", "unavailable"), source("pdl", "unavailable")];
    const decision = decideItem(facts({ sources, retryable: true, attempt: 3 }));
    expect(decision).toEqual({
      kind: "record",
      result: {
        status: "failed",
        error: {
          code: "source_unavailable",
          message: "nothing was found, and hunter, pdl could not answer (attempt 3); resubmit the item later",
        },
        sources,
      },
      cacheable: false,
    });
  });

  it("fails with source_unavailable at once when the unavailable source cannot recover by retrying", () => {
    const sources = [source("directory", "not_found"), source("hunter", "unavailable")];
    expect(decideItem(facts({ sources, retryable: false, attempt: 1 }))).toMatchObject({
      kind: "record",
      result: { status: "failed", error: { code: "source_unavailable" }, sources },
    });
  });

  it("completes with what the others found when a vendor was at its daily ceiling, without caching it", () => {
    const spent: SourceReport = { name: "hunter", outcome: "skipped", reason: "vendor_budget_exhausted" };
    for (const sources of [
      [spent, source("pdl", "found")],
      [source("directory", "not_found"), spent, source("pdl", "not_found")],
    ]) {
      const found = sources.some((report) => report.outcome === "found");
      expect(decideItem(facts({ emails: found ? [email] : [], sources, satisfied: found }))).toMatchObject({
        kind: "record",
        result: { status: "completed", outcome: found ? "found" : "not_found" },
        cacheable: false,
      });
    }
  });

  it("fails with source_unavailable, naming the vendor, when the only ones to ask were at their daily ceiling", () => {
    const sources: SourceReport[] = [
      { name: "hunter", outcome: "skipped", reason: "vendor_budget_exhausted" },
      source("pdl", "skipped"),
    ];
    expect(decideItem(facts({ sources }))).toEqual({
      kind: "record",
      result: {
        status: "failed",
        error: {
          code: "source_unavailable",
          message: "nothing was found, and hunter could not answer (attempt 1); resubmit the item later",
        },
        sources,
      },
      cacheable: false,
    });
  });

  it("completes found when something was found while another source was down, without caching it", () => {
    const sources = [source("pattern", "found"), source("hunter", "unavailable")];
    expect(decideItem(facts({ emails: [email], sources, retryable: true, attempt: 3 }))).toEqual({
      kind: "record",
      result: { status: "completed", outcome: "found", emails: [email], phones: [], fromCache: false, sources },
      cacheable: false,
    });
  });

  it("completes a satisfied item at once, even while a source is down, but does not cache it", () => {
    const sources = [source("hunter", "unavailable"), source("pdl", "found")];
    expect(decideItem(facts({ emails: [email], sources, satisfied: true, retryable: true, attempt: 1 }))).toMatchObject(
      {
        kind: "record",
        result: { status: "completed", outcome: "found", sources },
        cacheable: false,
      },
    );
  });

  it("retries a partial answer while a source might still add to it", () => {
    const sources = [source("pattern", "found"), source("hunter", "unavailable")];
    expect(decideItem(facts({ emails: [email], sources, retryable: true, attempt: 1 }))).toEqual({
      kind: "retry",
      retryAfterSeconds: undefined,
      held: false,
    });
  });

  it("retries, even past the last attempt, an item only our rate governor held back: no source was asked", () => {
    const sources = [source("directory", "not_found"), source("hunter", "unavailable")];
    expect(decideItem(facts({ sources, retryable: true, held: true, retryAfterSeconds: 2, attempt: 3 }))).toEqual({
      kind: "retry",
      retryAfterSeconds: 2,
      held: true,
    });
    // A vendor that failed as well makes the attempt count, as ever.
    expect(decideItem(facts({ sources, retryable: true, held: false, attempt: 3 }))).toMatchObject({ kind: "record" });
  });

  it("fails with processing_failed when no source could be asked at all", () => {
    const sources = [source("hunter", "skipped"), source("pdl", "skipped")];
    expect(decideItem(facts({ sources }))).toMatchObject({
      kind: "record",
      result: {
        status: "failed",
        error: { code: "processing_failed", message: "no data source is configured" },
        sources,
      },
    });
  });

  it("never ends not_found unless every source asked said not_found, whatever the sources said on any attempt", () => {
    let endedNotFound = 0;
    for (const first of SOURCE_OUTCOMES) {
      for (const second of SOURCE_OUTCOMES) {
        const sources = [source("a", first), source("b", second)];
        const emails = sources.some((s) => s.outcome === "found") ? [email] : [];
        for (const attempt of [1, 3]) {
          const decision = decideItem(
            facts({ emails, sources, retryable: sources.some((s) => s.outcome === "unavailable"), attempt }),
          );
          if (
            decision.kind === "record" &&
            decision.result.status === "completed" &&
            decision.result.outcome === "not_found"
          ) {
            expect(sources.filter((s) => s.outcome !== "skipped").map((s) => s.outcome)).toEqual(
              sources.filter((s) => s.outcome !== "skipped").map(() => "not_found"),
            );
            expect(sources.some((s) => s.outcome === "not_found")).toBe(true);
            endedNotFound++;
          }
          if (decision.kind === "record" && sources.some((s) => s.outcome === "unavailable"))
            expect(decision.cacheable).toBe(false);
        }
      }
    }
    // (not_found, not_found), (not_found, skipped), (skipped, not_found), on both attempts.
    expect(endedNotFound).toBe(6);
  });
});

describe("a completed item's outcome", () => {
  const verifier = (outcome: SourceReport["outcome"]): SourceReport => ({
    name: "zerobounce",
    outcome,
    kind: "verifier",
  });
  const nothing = { emails: [], phones: [] };

  it("is found when it returns a contact", () => {
    expect(outcomeOf({ emails: [email], phones: [] }, [source("hunter", "found"), verifier("found")])).toEqual({
      outcome: "found",
    });
  });

  it("is not_found with no reason when every source said not_found", () => {
    expect(outcomeOf(nothing, [source("directory", "not_found"), source("hunter", "not_found")])).toEqual({
      outcome: "not_found",
    });
  });

  it("says rejected_by_verification when a source found emails that verification dropped", () => {
    expect(
      outcomeOf(nothing, [source("directory", "not_found"), source("hunter", "found"), verifier("found")]),
    ).toEqual({
      outcome: "not_found",
      reason: "rejected_by_verification",
    });
  });

  it("takes no verifier's found for a data source's", () => {
    expect(outcomeOf(nothing, [source("hunter", "not_found"), verifier("found")])).toEqual({ outcome: "not_found" });
  });
});
