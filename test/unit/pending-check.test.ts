import { describe, expect, it } from "vitest";
import { pendingCheckNeeded } from "../../src/queue/pending-only";
import type { ItemMessage } from "../../src/queue-messages/item-message";

const message = (body: Partial<ItemMessage>, attempts = 1) =>
  ({
    body: { batchId: "b", environment: "test", fields: ["email"], items: [], ...body },
    attempts,
  }) as unknown as Message<ItemMessage>;

describe("whether a group's items are checked still pending before they are enriched", () => {
  it("not for a first delivery of a test batch outside a jurisdiction: record() answers what was no longer pending", () => {
    expect(pendingCheckNeeded("b", [message({}), message({})])).toBe(false);
  });

  it("for a live batch: a deleted batch's or an erased person's item never reaches a vendor", () => {
    expect(pendingCheckNeeded("b", [message({ environment: "live" })])).toBe(true);
  });

  it("for a batch kept in a jurisdiction: its messages carry indexes only, the answer brings the people", () => {
    const batchId = `eu-${crypto.randomUUID()}`;
    expect(pendingCheckNeeded(batchId, [message({ batchId })])).toBe(true);
  });

  it("when any message is redelivered, or sent again after a hold: likely partly recorded", () => {
    expect(pendingCheckNeeded("b", [message({}), message({}, 2)])).toBe(true);
    expect(pendingCheckNeeded("b", [message({ attemptsBefore: 1 })])).toBe(true);
  });
});
