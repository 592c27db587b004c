import { describe, expect, it } from "vitest";
import { endWithEarlierFinds } from "../../src/batch/record/earlier-finds";
import type { ItemOutcome } from "../../src/contact-info/batch-contract";
import type { Email, Phone } from "../../src/contact-info/contact";

const email = (address: string, confidence: number, source: string): Email => ({
  address,
  type: "work",
  status: "valid",
  confidence,
  source,
});
const phone: Phone = { number: "+12025550199", type: "mobile", confidence: 80, source: "pdl" };
const sources = [{ name: "pdl", outcome: "unavailable" as const }];
const earlier = { emails: [email("ada@a.example", 90, "hunter")], phones: [] };

describe("an item's end, given what it found before a wait", () => {
  it("completes a failed item with what was found before, keeping the last attempt's sources", () => {
    const failed: ItemOutcome = {
      index: 3,
      status: "failed",
      error: { code: "source_unavailable", message: "…" },
      sources,
    };
    expect(endWithEarlierFinds(failed, earlier)).toEqual({
      index: 3,
      status: "completed",
      outcome: "found",
      emails: earlier.emails,
      phones: [],
      sources,
    });
  });

  it("merges it into a completed answer: one entry per address, the most confident first", () => {
    const completed: ItemOutcome = {
      index: 1,
      status: "completed",
      outcome: "found",
      emails: [email("ADA@a.example", 60, "pattern"), email("b@a.example", 95, "pdl")],
      phones: [phone],
      sources,
    };
    const ended = endWithEarlierFinds(completed, earlier);
    expect(ended).toMatchObject({ status: "completed", outcome: "found", phones: [phone] });
    expect(ended.status === "completed" && ended.emails.map((e) => [e.address, e.source])).toEqual([
      ["b@a.example", "pdl"],
      ["ada@a.example", "hunter"],
    ]);
  });

  it("turns a not_found answer into found with what was found before", () => {
    const notFound: ItemOutcome = {
      index: 2,
      status: "completed",
      outcome: "not_found",
      emails: [],
      phones: [],
      sources,
    };
    expect(endWithEarlierFinds(notFound, earlier)).toMatchObject({ outcome: "found", emails: earlier.emails });
  });

  it("changes nothing when nothing was found before", () => {
    const failed: ItemOutcome = {
      index: 0,
      status: "failed",
      error: { code: "processing_failed", message: "…" },
      sources: [],
    };
    expect(endWithEarlierFinds(failed, { emails: [], phones: [] })).toBe(failed);
  });
});
