import { describe, expect, it } from "vitest";
import type { ItemOutcome } from "../../src/contact-info/batch-contract";
import type { SourceReport } from "../../src/contact-info/batch-views";
import type { Email, Phone } from "../../src/contact-info/contact";
import { itemErrors } from "../../src/contact-info/item-errors";
import { chargeOutcomes, itemCharge, maxItemCharge } from "../../src/credits/credits";

const prices = { email: 1, phone: 10, verification: 0 };
const email = (address: string): Email => ({
  address,
  type: "work",
  status: "valid",
  confidence: 90,
  source: "sandbox",
});
const phone: Phone = { number: "+14155550132", type: "mobile", confidence: 80, source: "sandbox" };
type Contacts = { emails?: Email[]; phones?: Phone[]; fromCache?: boolean; sources?: SourceReport[] };
const found = (index: number, contacts: Contacts = {}): ItemOutcome => ({
  index,
  status: "completed",
  outcome: "found",
  emails: contacts.emails ?? [email("a@x.example")],
  phones: contacts.phones ?? [],
  ...(contacts.fromCache ? { fromCache: true } : {}),
  sources: contacts.sources ?? [{ name: "sandbox", outcome: "found" }],
});

describe("what an item costs", () => {
  it("charges once per kind of contact delivered, at the listed prices", () => {
    expect(itemCharge(found(0), prices)).toBe(1);
    expect(itemCharge(found(0, { emails: [email("a@x.example"), email("b@x.example")] }), prices)).toBe(1);
    expect(itemCharge(found(0, { phones: [phone] }), prices)).toBe(11);
    expect(itemCharge(found(0, { emails: [], phones: [phone] }), prices)).toBe(10);
    expect(itemCharge(found(0, { phones: [phone] }), { email: 2, phone: 5, verification: 0 })).toBe(7);
  });

  it("charges nothing for a miss, a failure or a result from the cache", () => {
    const miss: ItemOutcome = {
      index: 0,
      status: "completed",
      outcome: "not_found",
      emails: [],
      phones: [],
      sources: [],
    };
    const failed: ItemOutcome = {
      index: 0,
      status: "failed",
      error: { code: "source_unavailable", message: "x" },
      sources: [],
    };
    expect(itemCharge(miss, prices)).toBe(0);
    expect(itemCharge(failed, prices)).toBe(0);
    expect(itemCharge(found(0, { phones: [phone], fromCache: true }), prices)).toBe(0);
  });

  it("bounds an item by the fields asked for", () => {
    expect(maxItemCharge(["email"], prices, 2)).toBe(1);
    expect(maxItemCharge(["phone"], prices, 2)).toBe(10);
    expect(maxItemCharge(["email", "phone"], prices, 2)).toBe(11);
  });

  it("charges each verification of the emails an item delivers, at the verification price", () => {
    const priced = { email: 1, phone: 10, verification: 2 };
    const judged = [
      { name: "hunter", outcome: "found" as const },
      { name: "zerobounce", outcome: "unavailable" as const, kind: "verifier" as const },
      { name: "neverbounce", outcome: "found" as const, kind: "verifier" as const },
    ];
    expect(itemCharge(found(0, { sources: judged }), priced)).toBe(3);
    expect(itemCharge(found(0, { emails: [], phones: [phone], sources: judged }), priced)).toBe(10);
    expect(maxItemCharge(["email"], priced, 2)).toBe(5);
  });
});

describe("the batch's cap", () => {
  const all = (n: number) => new Set(Array.from({ length: n }, (_, i) => i));

  it("charges in order until the next charge would pass maxCredits; the rest end budget_exhausted at no cost", () => {
    const outcomes = [found(0, { phones: [phone] }), found(1, { phones: [phone] }), found(2), found(3)];
    const { outcomes: charged, credits } = chargeOutcomes(outcomes, all(4), { charged: 0, maxCredits: 12 }, prices);
    expect(credits).toBe(12);
    expect(charged.map((o) => [o.status, o.credits])).toEqual([
      ["completed", 11],
      ["failed", 0],
      ["completed", 1],
      ["failed", 0],
    ]);
    expect(charged[1]).toMatchObject({
      status: "failed",
      error: itemErrors.budgetExhausted,
      sources: outcomes[1]!.sources,
    });
  });

  it("counts what the batch already charged, lets free outcomes through, and leaves items no longer pending uncharged", () => {
    const miss: ItemOutcome = {
      index: 1,
      status: "completed",
      outcome: "not_found",
      emails: [],
      phones: [],
      sources: [],
    };
    const { outcomes: charged, credits } = chargeOutcomes(
      [found(0), miss, found(2, { fromCache: true }), found(3), found(4)],
      new Set([0, 1, 2, 4]),
      { charged: 4, maxCredits: 5 },
      prices,
    );
    expect(credits).toBe(1);
    expect(charged.map((o) => [o.status, o.credits])).toEqual([
      ["completed", 1],
      ["completed", 0],
      ["completed", 0],
      ["completed", 0],
      ["failed", 0],
    ]);
  });

  it("has no cap when maxCredits is null, and charges nothing with maxCredits 0", () => {
    expect(chargeOutcomes([found(0), found(1)], all(2), { charged: 0, maxCredits: null }, prices).credits).toBe(2);
    const none = chargeOutcomes([found(0), found(1)], all(2), { charged: 0, maxCredits: 0 }, prices);
    expect(none.credits).toBe(0);
    expect(none.outcomes.every((o) => o.status === "failed")).toBe(true);
  });
});
