import { describe, expect, it } from "vitest";
import { estimateLine } from "../../console/words";
import type { ItemOutcome } from "../../src/contact-info/batch-contract";
import {
  budgetSettingsSchema,
  crossedPercents,
  decideReservation,
  monthSpan,
  outstanding,
  remainingOf,
} from "../../src/credits/budget";
import { chargeParts, itemCharge } from "../../src/credits/credits";

const none = { monthlyCredits: null, used: 0, reserved: 0 };

describe("a reservation against the month's budget (issue 50)", () => {
  it("fits when the cap is at most what remains, used and reserved both counted", () => {
    const customer = { monthlyCredits: 100, used: 40, reserved: 30 };
    expect(remainingOf(customer)).toBe(30);
    expect(decideReservation(30, customer, none)).toEqual({ ok: true, limited: true });
    expect(decideReservation(31, customer, none)).toEqual({
      ok: false,
      scope: "customer",
      monthlyCredits: 100,
      remaining: 30,
      cap: 31,
    });
  });

  it("refuses past the key's cap inside the customer's budget, naming the key", () => {
    const key = { monthlyCredits: 10, used: 4, reserved: 0 };
    expect(decideReservation(7, { monthlyCredits: 1000, used: 0, reserved: 0 }, key)).toMatchObject({
      ok: false,
      scope: "key",
      monthlyCredits: 10,
      remaining: 6,
    });
    expect(decideReservation(7, none, key)).toMatchObject({ ok: false, scope: "key" });
  });

  it("never limits without a budget, and a budget of 0 refuses any cap above 0", () => {
    expect(decideReservation(1e9, none, none)).toEqual({ ok: true, limited: false });
    expect(decideReservation(0, { monthlyCredits: 0, used: 0, reserved: 0 }, none)).toEqual({
      ok: true,
      limited: true,
    });
    expect(decideReservation(1, { monthlyCredits: 0, used: 0, reserved: 0 }, none).ok).toBe(false);
  });

  it("remains never below 0, though refunds and a lowered budget may take used past it", () => {
    expect(remainingOf({ monthlyCredits: 10, used: 12, reserved: 5 })).toBe(0);
  });
});

describe("what a reservation holds until its batch settles", () => {
  it("its cap less what was charged while open; once complete, only charges not yet applied", () => {
    expect(outstanding({ cap: 50, applied: 20, completed: false, charged: 30 })).toBe(30);
    expect(outstanding({ cap: 50, applied: 20, completed: true, charged: 30 })).toBe(10);
    expect(outstanding({ cap: 50, applied: 30, completed: true, charged: 30 })).toBe(0);
  });
});

describe("the month", () => {
  it("is the UTC calendar month, and resets at the next one's start", () => {
    expect(monthSpan(Date.parse("2026-12-31T23:59:59.999Z"))).toEqual({
      from: "2026-12-01",
      to: "2026-12-31",
      resetsAt: "2027-01-01T00:00:00.000Z",
    });
    expect(monthSpan(Date.parse("2028-02-10T00:00:00Z")).to).toBe("2028-02-29");
  });
});

describe("alert percents", () => {
  it("names each percent reached by this charge, once a month", () => {
    expect(crossedPercents([50, 80, 100], 100, 40, 85, [])).toEqual([50, 80]);
    expect(crossedPercents([50, 80, 100], 100, 40, 85, [50])).toEqual([80]);
    expect(crossedPercents([50, 80, 100], 100, 85, 85, [])).toEqual([]);
    expect(crossedPercents([50, 80, 100], null, 0, 85, [])).toEqual([]);
  });

  it("sends a percent reached before the budget was set with the next charge", () => {
    expect(crossedPercents([50], 100, 60, 61, [])).toEqual([50]);
  });
});

describe("the budget's settings", () => {
  it("take a whole number ≥ 0 or null, and distinct percents from 1 to 100", () => {
    expect(budgetSettingsSchema.safeParse({ monthlyCredits: 5 }).success).toBe(true);
    expect(budgetSettingsSchema.safeParse({ monthlyCredits: null }).success).toBe(true);
    for (const bad of [
      { monthlyCredits: -1 },
      { monthlyCredits: 1.5 },
      { monthlyCredits: "5" },
      {},
      { monthlyCredits: 5, alertPercents: [0] },
      { monthlyCredits: 5, alertPercents: [50, 50] },
      { monthlyCredits: 5, other: 1 },
    ])
      expect(budgetSettingsSchema.safeParse(bad).success).toBe(false);
  });
});

describe("the ledger's lines for a charge", () => {
  const prices = { email: 1, phone: 10, verification: 2 };
  const outcome: ItemOutcome = {
    index: 3,
    status: "completed",
    outcome: "found",
    emails: [{ address: "a@x.example", type: "work", status: "valid", confidence: 90, source: "hunter" }],
    phones: [{ number: "+14155550132", type: "mobile", confidence: 80, source: "pdl" }],
    sources: [
      { name: "hunter", outcome: "found" },
      { name: "zerobounce", outcome: "found", kind: "verifier" },
    ],
  };

  it("one per kind of contact, with its source, summing to the item's charge", () => {
    expect(chargeParts(outcome, prices)).toEqual([
      { contact: "email", source: "hunter", credits: 3 },
      { contact: "phone", source: "pdl", credits: 10 },
    ]);
    expect(itemCharge(outcome, prices)).toBe(13);
  });

  it("a cached result verified again: its verifications only, on the email", () => {
    const cached = { ...outcome, fromCache: true, reverified: true };
    expect(chargeParts(cached, prices)).toEqual([{ contact: "email", source: "hunter", credits: 2 }]);
    expect(chargeParts({ ...outcome, fromCache: true }, prices)).toEqual([]);
  });
});

describe("the console says the budget before spending", () => {
  const estimate = { maxCredits: 22, validItems: 2, duplicateItems: 0, cachedItems: 0 };

  it("says what remains, warns when the batch would be refused, and says nothing without a budget", () => {
    expect(estimateLine({ ...estimate, remainingCredits: 100 }, "row")).toMatch(
      /100 credits of this month's budget remain\.$/,
    );
    expect(estimateLine({ ...estimate, remainingCredits: 10 }, "row")).toMatch(/Only 10 credits .* would be refused/);
    expect(estimateLine({ ...estimate, remainingCredits: null }, "row")).toMatch(/you pay only for what is found\.$/);
  });
});
