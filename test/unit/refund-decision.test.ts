import { describe, expect, it } from "vitest";
import { decideRefund } from "../../src/credits/refund";

const prices = { email: 1, phone: 10, verification: 2 };
const delivered = "2026-11-01T00:00:00.000Z";
const day = 86_400_000;
const now = Date.parse(delivered) + day;
// An item that delivered an email, judged by one verifier (1 + 2), and a phone (10).
const item = {
  credits: 13,
  creditsRefunded: 0,
  finishedAt: delivered,
  sources: [
    { name: "hunter", outcome: "found" as const },
    { name: "zerobounce", outcome: "found" as const, kind: "verifier" as const },
  ],
  reports: [],
};

describe("what a report of a wrong contact refunds", () => {
  it("refunds the price that kind of contact was charged: an email with its verifications, a phone", () => {
    expect(decideRefund(item, "email", 0, prices, now)).toEqual({ refunded: 3, reason: null, refundedBefore: 0 });
    expect(decideRefund(item, "phone", 0, prices, now)).toEqual({ refunded: 10, reason: null, refundedBefore: 0 });
  });

  it("refunds a value once: a repeat refunds 0 and says what the first refunded", () => {
    const reports = [{ contact: "email" as const, position: 1, refunded: 3 }];
    const again = decideRefund({ ...item, creditsRefunded: 3, reports }, "email", 1, prices, now);
    expect(again).toEqual({ refunded: 0, reason: "already_reported", refundedBefore: 3 });
  });

  it("refunds a kind once per item: another email of the same item refunds 0", () => {
    const reports = [{ contact: "email" as const, position: 0, refunded: 3 }];
    const other = decideRefund({ ...item, creditsRefunded: 3, reports }, "email", 1, prices, now);
    expect(other).toMatchObject({ refunded: 0, reason: "already_refunded" });
    expect(decideRefund({ ...item, creditsRefunded: 3, reports }, "phone", 0, prices, now).refunded).toBe(10);
  });

  it("never refunds more than the item has left, nor anything for an item not charged", () => {
    // Prices raised since the charge: the refund stops at what was paid.
    expect(decideRefund({ ...item, credits: 2 }, "email", 0, prices, now).refunded).toBe(2);
    expect(decideRefund({ ...item, credits: 13, creditsRefunded: 12 }, "phone", 0, prices, now).refunded).toBe(1);
    expect(decideRefund({ ...item, credits: 0 }, "email", 0, prices, now)).toMatchObject({
      refunded: 0,
      reason: "not_charged",
    });
  });

  it("refunds within 30 days of delivery, and nothing after", () => {
    expect(decideRefund(item, "email", 0, prices, Date.parse(delivered) + 30 * day).refunded).toBe(3);
    expect(decideRefund(item, "email", 0, prices, Date.parse(delivered) + 30 * day + 1)).toMatchObject({
      refunded: 0,
      reason: "refund_window_closed",
    });
  });
});
