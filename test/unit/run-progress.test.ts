import { describe, expect, it } from "vitest";
import { RunTracker } from "../../client/src/index";

const found = (index: number) => ({ index, status: "completed" as const, outcome: "found" as const, error: null });
const notFound = (index: number) => ({
  index,
  status: "completed" as const,
  outcome: "not_found" as const,
  error: null,
});
const failed = (index: number, code: "processing_failed" | "suppressed") => ({
  index,
  status: "failed" as const,
  outcome: null,
  error: { code, message: "…" },
});

describe("a run's progress, from its event streams", () => {
  it("counts each finished item by outcome, once however often a reconnect repeats it", () => {
    const tracker = new RunTracker(5, () => 0);
    tracker.item("b1", found(0));
    tracker.item("b1", notFound(1));
    tracker.item("b1", found(0));
    tracker.item("b2", failed(0, "processing_failed"));
    tracker.item("b2", failed(1, "suppressed"));
    expect(tracker.snapshot()).toMatchObject({ total: 5, done: 4, found: 1, notFound: 1, failed: 1, suppressed: 1 });
  });

  it("takes the counters' done and failed when item events are missing (polling)", () => {
    const tracker = new RunTracker(10, () => 0);
    tracker.counters("b1", { completedItems: 6, failedItems: 2 });
    expect(tracker.snapshot()).toMatchObject({ done: 8, found: 0, failed: 2 });
  });

  it("does not count a replay on reconnect as pace: the counters on connecting already hold it", () => {
    let now = 0;
    const tracker = new RunTracker(100, () => now);
    tracker.counters("b1", { completedItems: 50, failedItems: 0 });
    for (let i = 0; i < 50; i++) tracker.item("b1", found(i));
    expect(tracker.snapshot()).toMatchObject({ done: 50, measured: false });
    now = 10_000;
    tracker.item("b1", found(50));
    // One item in 10 s: 49 left take 490 s.
    expect(tracker.snapshot()).toMatchObject({ done: 51, measured: true, secondsLeft: 490 });
  });

  it("measures the pace over the last minute, not since the start", () => {
    let now = 0;
    const tracker = new RunTracker(1000, () => now);
    // A slow start (1 a second for two minutes), then 10 a second.
    for (let i = 0; i < 120; i++, now += 1000) tracker.item("b", found(i));
    for (let i = 120; i < 720; i++, now += 100) tracker.item("b", found(i));
    now -= 100;
    const { secondsLeft } = tracker.snapshot();
    expect(secondsLeft).toBe(28);
  });

  it("says nothing of time left once the pace says it should be done: the last rows are being retried", () => {
    let now = 0;
    const tracker = new RunTracker(3, () => now);
    tracker.item("b", found(0));
    now = 1000;
    tracker.item("b", found(1));
    expect(tracker.snapshot()).toMatchObject({ measured: true, secondsLeft: 1 });
    now = 20_000;
    const late = tracker.snapshot();
    expect(late.measured).toBe(true);
    expect(late.secondsLeft).toBeUndefined();
    tracker.item("b", found(2));
    expect(tracker.snapshot()).toMatchObject({ done: 3, found: 3 });
    expect(tracker.snapshot().secondsLeft).toBeUndefined();
  });
});
