import { describe, expect, it } from "vitest";
import type { ItemOutcome } from "../../src/contact-info/batch-contract";
import { itemErrors } from "../../src/contact-info/item-errors";
import type { Resolution } from "../../src/enrichment/enricher";
import { type ItemAttempt, planGroup, type TriedMessage } from "../../src/queue/group-plan";
import { MAX_RETRY_AFTER_SECONDS } from "../../src/queue/retry";

// The consumer's plan for one batch's group of messages (src/queue/group-plan.ts), without a queue.

const config = { itemMaxAttempts: 6, retryBaseDelaySeconds: 30, retryMaxDelaySeconds: 300 };
const NOW = Date.parse("2026-11-27T10:00:00.000Z");
const random = () => 0.5;

const found: Resolution = {
  kind: "record",
  result: {
    status: "completed",
    outcome: "found",
    emails: [],
    phones: [],
    sources: [{ name: "hunter", outcome: "found" }],
  },
  reports: [{ name: "hunter", outcome: "found", ms: 12 }],
};
const retryAfter = (seconds: number | undefined, held = false): Resolution => ({
  kind: "retry",
  retryAfterSeconds: seconds,
  held,
  found: { emails: [], phones: [] },
  reports: [{ name: "pdl", outcome: "unavailable", ms: 5 }],
});
const resolved = (index: number, resolution: Resolution, attempt = 1): ItemAttempt => ({
  index,
  attempt,
  kind: "resolved",
  resolution,
});
const message = (name: string, attempts: ItemAttempt[], deliveries = 1): TriedMessage<string> => ({
  message: name,
  deliveries,
  indexes: attempts.map(({ index }) => index),
  attempts,
});

describe("a consumer group's plan", () => {
  it("records what resolved and acks messages with nothing left to retry", () => {
    const plan = planGroup([message("m1", [resolved(0, found), resolved(1, found)])], [], config, NOW, random);
    expect(plan.outcomes.map(({ index, status }) => [index, status])).toEqual([
      [0, "completed"],
      [1, "completed"],
    ]);
    expect(plan.actions.get("m1")).toEqual({ kind: "ack" });
    expect(plan.deferrals).toEqual([]);
    expect(plan.providerCounts).toEqual({ "hunter:found": 2 });
  });

  it("keeps the suppressed items' outcomes, which no attempt was made for", () => {
    const suppressed: ItemOutcome = { index: 3, status: "failed", error: itemErrors.suppressed, sources: [] };
    const plan = planGroup([message("m1", [])], [suppressed], config, NOW, random);
    expect(plan.outcomes).toEqual([suppressed]);
    expect(plan.actions.get("m1")).toEqual({ kind: "ack" });
  });

  it("retries a message for its longest Retry-After, with its unrecorded items deferred until then", () => {
    const plan = planGroup(
      [message("m1", [resolved(0, found), resolved(1, retryAfter(400)), resolved(2, retryAfter(20))])],
      [],
      config,
      NOW,
      random,
    );
    expect(plan.actions.get("m1")).toEqual({ kind: "retry", delaySeconds: 400, retryAfterSeconds: 400, held: false });
    const dueAt = new Date(NOW + 400_000).toISOString();
    expect(plan.deferrals).toEqual([
      { index: 1, dueAt, found: { emails: [], phones: [] } },
      { index: 2, dueAt, found: { emails: [], phones: [] } },
    ]);
  });

  it("waits at least the backoff, and never past MAX_RETRY_AFTER_SECONDS of a source's asking", () => {
    const shortWait = planGroup([message("m1", [resolved(0, retryAfter(1))], 3)], [], config, NOW, random);
    expect(shortWait.actions.get("m1")).toMatchObject({ kind: "retry", held: false });
    const { delaySeconds } = shortWait.actions.get("m1") as { delaySeconds: number };
    expect(delaySeconds).toBeGreaterThanOrEqual(config.retryBaseDelaySeconds);
    const longWait = planGroup([message("m1", [resolved(0, retryAfter(999_999))])], [], config, NOW, random);
    expect(longWait.actions.get("m1")).toMatchObject({ delaySeconds: MAX_RETRY_AFTER_SECONDS });
  });

  it("sends a message held only by our governor again after the time it named, its attempt not counted", () => {
    const plan = planGroup(
      [message("m1", [resolved(0, retryAfter(2, true)), resolved(1, retryAfter(1, true))])],
      [],
      config,
      NOW,
      random,
    );
    expect(plan.actions.get("m1")).toEqual({ kind: "retry", delaySeconds: 2, retryAfterSeconds: 2, held: true });
    // One item retried for a vendor's failure makes the attempt count, and the backoff apply.
    const mixed = planGroup(
      [message("m1", [resolved(0, retryAfter(2, true)), resolved(1, retryAfter(undefined))])],
      [],
      config,
      NOW,
      random,
    );
    expect(mixed.actions.get("m1")).toMatchObject({ kind: "retry", held: false });
  });

  it("retries an error of ours until ITEM_MAX_ATTEMPTS, then fails the item processing_failed", () => {
    const early = planGroup([message("m1", [{ index: 0, attempt: 5, kind: "crashed" }])], [], config, NOW, random);
    expect(early.outcomes).toEqual([]);
    expect(early.actions.get("m1")).toMatchObject({ kind: "retry", held: false });
    const last = planGroup([message("m1", [{ index: 0, attempt: 6, kind: "crashed" }])], [], config, NOW, random);
    expect(last.outcomes).toEqual([{ index: 0, status: "failed", error: itemErrors.everyAttemptFailed, sources: [] }]);
    expect(last.actions.get("m1")).toEqual({ kind: "ack" });
  });

  it("defers no item another message of the group recorded (a redelivered duplicate)", () => {
    const plan = planGroup(
      [message("m1", [resolved(0, retryAfter(10))]), message("m2", [resolved(0, found, 2)])],
      [],
      config,
      NOW,
      random,
    );
    expect(plan.deferrals).toEqual([]);
    expect(plan.actions.get("m2")).toEqual({ kind: "ack" });
  });
});
