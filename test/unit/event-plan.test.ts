import { describe, expect, it } from "vitest";
import type { EventSnapshot } from "../../src/batch/events/event-log";
import { PROGRESS_INTERVAL_MS, planEvents, type SubscriberState, sseText } from "../../src/batch/events/event-plan";

const counters = (finished: number, total = 4) => ({
  id: "3e1cab3a-0527-4fea-987c-d486f470829c",
  status: finished === 0 ? ("pending" as const) : finished < total ? ("processing" as const) : ("completed" as const),
  totalItems: total,
  completedItems: finished,
  failedItems: 0,
  createdAt: "2026-11-22T10:00:00.000Z",
  completedAt: finished < total ? null : "2026-11-22T10:00:09.000Z",
  creditsCharged: finished,
  creditsRefunded: 0,
  maxCredits: null,
});
const log = (seq: number, items: number[] = []): EventSnapshot => ({
  seq,
  summary: counters(seq),
  items: items.map((n) => ({ seq: n, itemJson: `{"index":${n - 1}}` })),
});
const fresh = (withItems: boolean, after = 0): SubscriberState => ({
  withItems,
  after,
  progressSeq: null,
  progressAt: 0,
});

describe("planEvents", () => {
  it("sends the counters at once on connecting, then waits for the log to change", () => {
    const step = planEvents(fresh(false), log(0), 1_000);
    expect(step.events).toEqual([{ id: 0, event: "progress", data: JSON.stringify(counters(0)) }]);
    expect(step.next).toEqual({ kind: "wait" });
    expect(planEvents(step.state, log(0), 5_000)).toMatchObject({ events: [], next: { kind: "wait" } });
  });

  it("coalesces progress: another within the interval waits until it is due", () => {
    const first = planEvents(fresh(false), log(1), 1_000).state;
    const early = planEvents(first, log(2), 1_100);
    expect(early).toMatchObject({ events: [], next: { kind: "wait", inMs: PROGRESS_INTERVAL_MS - 100 } });
    const due = planEvents(early.state, log(3), 1_000 + PROGRESS_INTERVAL_MS);
    expect(due.events).toEqual([{ id: 3, event: "progress", data: JSON.stringify(counters(3)) }]);
  });

  it("sends item events after the client's last, each numbered, then the progress that counts them", () => {
    const step = planEvents(fresh(true, 1), log(3, [2, 3]), 1_000);
    expect(step.events.map((e) => [e.event, e.id])).toEqual([
      ["item", 2],
      ["item", 3],
      ["progress", 3],
    ]);
    expect(step.state.after).toBe(3);
  });

  it("reads on, without progress, while more item events wait in the log", () => {
    const step = planEvents(fresh(true), log(3, [1, 2]), 1_000);
    expect(step.events.map((e) => e.event)).toEqual(["item", "item"]);
    expect(step.next).toEqual({ kind: "more" });
  });

  it("ends with completed, numbered as the last event, once every item event is sent", () => {
    const step = planEvents(fresh(true, 3), log(4, [4]), 1_000);
    expect(step.events.map((e) => [e.event, e.id])).toEqual([
      ["item", 4],
      ["completed", 4],
    ]);
    expect(step.next).toEqual({ kind: "close" });
  });

  it("writes each event as event, id and one data line", () => {
    expect(sseText([{ id: 7, event: "item", data: '{"a":"x\\ny"}' }])).toBe(
      'event: item\nid: 7\ndata: {"a":"x\\ny"}\n\n',
    );
  });
});
