import { describe, expect, it } from "vitest";
import {
  itemRedrive,
  MAX_ITEM_ENQUEUES,
  MAX_WEBHOOK_ENQUEUES,
  nextStep,
  type StepFacts,
} from "../../src/batch/next-step";

const second = 1000;
const minute = 60 * second;
const now = Date.parse("2026-11-22T12:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();
const config = {
  batchDeadlineSeconds: 3600,
  redriveAfterSeconds: 120,
  retentionSeconds: 86_400,
  webhookMaxAttempts: 3,
  fanOutWindowItems: 100,
};

// A batch created ten minutes ago, fanned out, its three items pending.
const open: StepFacts = {
  created_at: iso(now - 10 * minute),
  completed_at: null,
  expired_at: null,
  deleted_at: null,
  unreported: 0,
  cache_purge_left: 0,
  total_items: 3,
  next_enqueue_index: 3,
  in_flight: 0,
  oldest_pending_due: iso(now - minute),
  webhook_state: null,
  webhook_attempts: 0,
  webhook_enqueues: 0,
  webhook_queued_at: null,
  webhook_attempted_at: null,
  item_webhooks_unsent: 0,
  item_webhooks_idle_since: null,
  events_published: 1,
  item_events_unpublished: 0,
};
const deadline = now + 50 * minute;

// Completed a minute ago; retention ends a day after that.
const completed: StepFacts = { ...open, completed_at: iso(now - minute), oldest_pending_due: null };
const retentionEnd = now - minute + 86_400 * second;

describe("an open batch's next step", () => {
  it("is the fan-out while items are left to enqueue and half the window is free, even past the deadline", () => {
    expect(nextStep({ ...open, next_enqueue_index: 1 }, now, config)).toEqual({ kind: "fan_out" });
    expect(nextStep({ ...open, next_enqueue_index: 1 }, deadline, config)).toEqual({ kind: "fan_out" });
    expect(nextStep({ ...open, next_enqueue_index: 1, in_flight: 50 }, now, config)).toEqual({ kind: "fan_out" });
  });

  it("waits while more than half the fan-out window is on the queue: recording re-arms it", () => {
    expect(nextStep({ ...open, next_enqueue_index: 1, in_flight: 51 }, now, config)).toEqual({
      kind: "wait_until",
      at: now + minute,
    });
  });

  it("re-drives lost items and meets the deadline during a paced fan-out too", () => {
    const pacing = { ...open, total_items: 10_000, next_enqueue_index: 200, in_flight: 100 };
    expect(nextStep({ ...pacing, oldest_pending_due: iso(now - 2 * minute) }, now, config)).toEqual({
      kind: "redrive",
    });
    expect(nextStep(pacing, deadline, config)).toEqual({ kind: "time_out_items" });
  });

  it("counts a re-drive from when a deferred item is due, however far ahead that is", () => {
    const waiting = { ...open, oldest_pending_due: iso(now + 12 * 60 * minute) };
    expect(nextStep(waiting, now, { ...config, batchDeadlineSeconds: 86_400 })).toEqual({
      kind: "wait_until",
      at: now + 12 * 60 * minute + 2 * minute,
    });
  });

  it("waits until the oldest pending item is due for a re-drive, when that comes before the deadline", () => {
    expect(nextStep(open, now, config)).toEqual({ kind: "wait_until", at: now + minute });
  });

  it("waits until the deadline when nothing pending was enqueued, or the re-drive would come later", () => {
    expect(nextStep({ ...open, oldest_pending_due: null }, now, config)).toEqual({ kind: "wait_until", at: deadline });
    expect(nextStep({ ...open, oldest_pending_due: iso(deadline - minute) }, deadline - 2 * minute, config)).toEqual({
      kind: "wait_until",
      at: deadline,
    });
  });

  it("re-drives once the oldest pending item was enqueued REDRIVE_AFTER_SECONDS ago", () => {
    expect(nextStep({ ...open, oldest_pending_due: iso(now - 2 * minute) }, now, config)).toEqual({ kind: "redrive" });
    expect(nextStep({ ...open, oldest_pending_due: iso(now - 2 * minute + 1) }, now, config)).toEqual({
      kind: "wait_until",
      at: now + 1,
    });
  });

  it("times out the pending items at BATCH_DEADLINE_SECONDS after creation, before any re-drive", () => {
    expect(nextStep(open, deadline - 1, { ...config, redriveAfterSeconds: 86_400 })).toEqual({
      kind: "wait_until",
      at: deadline,
    });
    expect(nextStep(open, deadline, config)).toEqual({ kind: "time_out_items" });
    expect(nextStep(open, deadline + 86_400 * second, config)).toEqual({ kind: "time_out_items" });
  });
});

describe("a completed batch's next step", () => {
  it("waits until retention ends, then expires", () => {
    expect(nextStep(completed, now, config)).toEqual({ kind: "wait_until", at: retentionEnd });
    expect(nextStep(completed, retentionEnd - 1, config)).toEqual({ kind: "wait_until", at: retentionEnd });
    expect(nextStep(completed, retentionEnd, config)).toEqual({ kind: "expire" });
  });

  it("publishes batch.completed to the customer's endpoints once, after handing over its own webhook", () => {
    const unpublished = { ...completed, events_published: 0 };
    expect(nextStep(unpublished, now, config)).toEqual({ kind: "publish_events" });
    expect(nextStep({ ...unpublished, webhook_state: "pending" }, now, config)).toEqual({ kind: "send_webhook" });
    expect(nextStep({ ...unpublished, completed_at: null }, now, config).kind).not.toBe("publish_events");
    expect(nextStep({ ...unpublished, deleted_at: iso(now) }, now, config)).toEqual({ kind: "none" });
  });

  it("hands item.completed events to the customer's endpoints while any wait, before batch.completed, open or completed", () => {
    const waiting = { ...completed, events_published: 0, item_events_unpublished: 1 };
    expect(nextStep(waiting, now, config)).toEqual({ kind: "publish_item_events" });
    expect(nextStep({ ...open, item_events_unpublished: 1 }, now, config)).toEqual({ kind: "publish_item_events" });
    expect(nextStep({ ...waiting, deleted_at: iso(now) }, now, config)).toEqual({ kind: "none" });
    expect(nextStep({ ...waiting, expired_at: iso(now) }, now, config)).toEqual({ kind: "none" });
  });

  it("hands a pending webhook to its queue first, even once retention ended", () => {
    expect(nextStep({ ...completed, webhook_state: "pending" }, now, config)).toEqual({ kind: "send_webhook" });
    expect(nextStep({ ...completed, webhook_state: "pending" }, retentionEnd, config)).toEqual({
      kind: "send_webhook",
    });
  });

  it("expires whatever became of a delivered or failed webhook", () => {
    for (const webhook_state of ["delivered", "failed"] as const) {
      expect(nextStep({ ...completed, webhook_state }, now, config)).toEqual({ kind: "wait_until", at: retentionEnd });
      expect(nextStep({ ...completed, webhook_state }, retentionEnd, config)).toEqual({ kind: "expire" });
    }
  });

  describe("with its webhook queued", () => {
    const queued: StepFacts = {
      ...completed,
      webhook_state: "queued",
      webhook_attempts: 1,
      webhook_enqueues: 1,
      webhook_queued_at: iso(now - minute),
    };

    it("checks again REDRIVE_AFTER_SECONDS after the last enqueue or attempt, whichever came later", () => {
      expect(nextStep(queued, now, config)).toEqual({ kind: "wait_until", at: now + minute });
      expect(nextStep({ ...queued, webhook_attempted_at: iso(now - 30 * second) }, now, config)).toEqual({
        kind: "wait_until",
        at: now + 90 * second,
      });
    });

    it("resends a webhook stuck past that, while attempts and enqueues are left", () => {
      expect(nextStep(queued, now + minute, config)).toEqual({ kind: "send_webhook" });
    });

    it("fails a stuck webhook that used its attempts or its enqueues", () => {
      expect(nextStep({ ...queued, webhook_attempts: 3 }, now + minute, config)).toEqual({ kind: "fail_webhook" });
      expect(nextStep({ ...queued, webhook_enqueues: MAX_WEBHOOK_ENQUEUES }, now + minute, config)).toEqual({
        kind: "fail_webhook",
      });
    });

    it("expires at retention end when that comes before the webhook's check", () => {
      const late = { ...queued, webhook_queued_at: iso(retentionEnd - 30 * second) };
      expect(nextStep(late, retentionEnd - minute, config)).toEqual({ kind: "wait_until", at: retentionEnd });
      expect(nextStep(late, retentionEnd, config)).toEqual({ kind: "expire" });
    });
  });
});

describe("item.completed deliveries", () => {
  it("are handed to the queue at once, open or completed, after the report and before the fan-out", () => {
    expect(nextStep({ ...open, item_webhooks_unsent: 1, next_enqueue_index: 1 }, now, config)).toEqual({
      kind: "send_item_webhooks",
    });
    expect(nextStep({ ...completed, item_webhooks_unsent: 1, webhook_state: "pending" }, now, config)).toEqual({
      kind: "send_item_webhooks",
    });
    expect(nextStep({ ...open, item_webhooks_unsent: 1, unreported: 1 }, now, config)).toEqual({ kind: "report" });
  });

  it("are checked again REDRIVE_AFTER_SECONDS after the oldest last activity of one still queued, then re-sent", () => {
    const idle = { ...completed, item_webhooks_idle_since: iso(now - minute) };
    expect(nextStep(idle, now, config)).toEqual({ kind: "wait_until", at: now + minute });
    expect(nextStep(idle, now + minute, config)).toEqual({ kind: "send_item_webhooks" });
    expect(nextStep({ ...open, item_webhooks_idle_since: iso(now - 90 * second) }, now, config)).toEqual({
      kind: "wait_until",
      at: now + 30 * second,
    });
  });

  it("stop with the batch: deleted or expired, nothing more is sent", () => {
    const waiting = { ...completed, item_webhooks_unsent: 1, item_webhooks_idle_since: iso(now - 10 * minute) };
    expect(nextStep({ ...waiting, deleted_at: iso(now) }, now, config)).toEqual({ kind: "none" });
    expect(nextStep({ ...waiting, expired_at: iso(now) }, now, config)).toEqual({ kind: "none" });
  });
});

describe("an expired batch's next step", () => {
  it("is nothing, ever", () => {
    expect(nextStep({ ...completed, expired_at: iso(retentionEnd) }, retentionEnd + minute, config)).toEqual({
      kind: "none",
    });
  });
});

describe("an item's re-drive", () => {
  it("resends while the item has enqueues left, then fails it", () => {
    expect(itemRedrive(1)).toBe("resend");
    expect(itemRedrive(MAX_ITEM_ENQUEUES - 1)).toBe("resend");
    expect(itemRedrive(MAX_ITEM_ENQUEUES)).toBe("fail");
  });
});

describe("reporting to the account and deletion", () => {
  it("reports the outbox first, whatever else is due", () => {
    expect(nextStep({ ...open, unreported: 1, next_enqueue_index: 0 }, now, config)).toEqual({ kind: "report" });
    expect(nextStep({ ...completed, unreported: 2, webhook_state: "pending" }, now, config)).toEqual({
      kind: "report",
    });
    expect(nextStep({ ...completed, unreported: 1, deleted_at: iso(now) }, now, config)).toEqual({ kind: "report" });
  });

  it("does nothing more for a deleted batch once its deletion is reported: no fan-out, re-drive, deadline or webhook", () => {
    const deleted = iso(now - second);
    expect(nextStep({ ...open, deleted_at: deleted, next_enqueue_index: 0 }, deadline, config)).toEqual({
      kind: "none",
    });
    expect(nextStep({ ...open, deleted_at: deleted }, now + 10 * minute, config)).toEqual({ kind: "none" });
    expect(nextStep({ ...completed, deleted_at: deleted, webhook_state: "pending" }, now, config)).toEqual({
      kind: "none",
    });
    expect(nextStep({ ...completed, deleted_at: deleted }, retentionEnd, config)).toEqual({ kind: "none" });
  });

  it("purges the deleted batch's people from the result cache after the report, until none is left", () => {
    const deleted = { ...completed, deleted_at: iso(now - second), cache_purge_left: 1 };
    expect(nextStep({ ...deleted, unreported: 1 }, now, config)).toEqual({ kind: "report" });
    expect(nextStep(deleted, now, config)).toEqual({ kind: "purge_cache" });
    expect(nextStep({ ...deleted, cache_purge_left: 0 }, now, config)).toEqual({ kind: "none" });
  });
});
