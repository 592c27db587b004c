import { describe, expect, it } from "vitest";
import { earliest, itemRedrive, latest, MAX_ITEM_ENQUEUES, MAX_WEBHOOK_ENQUEUES, planOpenBatch, planWebhook } from "../../src/batch/redrive";

const now = 1_000_000_000;
const minute = 60_000;

describe("the open batch's plan", () => {
  const facts = { now, deadline: now + 60 * minute, oldestEnqueuedAt: now - minute, redriveAfterSeconds: 120 };

  it("sleeps until the oldest pending item is due for a re-drive, when that comes before the deadline", () => {
    expect(planOpenBatch(facts)).toEqual({ kind: "sleep", until: now + minute });
  });

  it("sleeps until the deadline when nothing pending was enqueued, or the re-drive would come later", () => {
    expect(planOpenBatch({ ...facts, oldestEnqueuedAt: null })).toEqual({ kind: "sleep", until: facts.deadline });
    expect(planOpenBatch({ ...facts, deadline: now + 30_000 })).toEqual({ kind: "sleep", until: now + 30_000 });
  });

  it("re-drives once the oldest pending item was enqueued longer ago than REDRIVE_AFTER_SECONDS", () => {
    expect(planOpenBatch({ ...facts, oldestEnqueuedAt: now - 2 * minute })).toEqual({ kind: "redrive" });
    expect(planOpenBatch({ ...facts, oldestEnqueuedAt: now - 2 * minute + 1 })).toEqual({ kind: "sleep", until: now + 1 });
  });

  it("fails what is left at the deadline, before any re-drive", () => {
    expect(planOpenBatch({ ...facts, deadline: now, oldestEnqueuedAt: now - 10 * minute })).toEqual({ kind: "fail_remaining" });
  });
});

describe("an item's re-drive", () => {
  it("resends while the item has enqueues left, then fails it", () => {
    expect(itemRedrive(1)).toBe("resend");
    expect(itemRedrive(MAX_ITEM_ENQUEUES - 1)).toBe("resend");
    expect(itemRedrive(MAX_ITEM_ENQUEUES)).toBe("fail");
  });
});

describe("the webhook's re-drive", () => {
  const limits = { redriveAfterSeconds: 120, maxAttempts: 3 };
  const queued = { state: "queued" as const, lastActivityAt: now - minute, attempts: 1, enqueues: 1 };

  it("does nothing unless the webhook is queued", () => {
    for (const state of [null, "pending", "delivered", "failed"] as const) expect(planWebhook({ ...queued, state }, now, limits)).toEqual({ kind: "none" });
  });

  it("checks again REDRIVE_AFTER_SECONDS after the last enqueue or attempt", () => {
    expect(planWebhook(queued, now, limits)).toEqual({ kind: "check", at: now + minute });
  });

  it("resends a webhook stuck past that, while attempts and enqueues are left", () => {
    expect(planWebhook({ ...queued, lastActivityAt: now - 2 * minute }, now, limits)).toEqual({ kind: "resend" });
  });

  it("fails a stuck webhook that used its attempts or its enqueues", () => {
    const stuck = { ...queued, lastActivityAt: now - 2 * minute };
    expect(planWebhook({ ...stuck, attempts: 3 }, now, limits)).toEqual({ kind: "fail" });
    expect(planWebhook({ ...stuck, enqueues: MAX_WEBHOOK_ENQUEUES }, now, limits)).toEqual({ kind: "fail" });
  });
});

describe("choosing times", () => {
  it("takes the earliest or latest of the known times", () => {
    expect(earliest(3, null, 1)).toBe(1);
    expect(latest(3, null, 1)).toBe(3);
    expect(earliest(null)).toBeNull();
    expect(latest()).toBeNull();
  });
});
