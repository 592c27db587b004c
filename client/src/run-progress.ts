// Where a run of one or more batches stands, from what their event streams say:
// each finished item counted by its outcome (found, not found, failed, suppressed),
// and the time left at the pace measured over the last minute, not since the start
// (which counts the submit, and a burst replayed on reconnect, as pace). Used by the
// console page and `npm run enrich` alike.
import type { BatchItem } from "./paths.js";

export interface RunProgress {
  total: number;
  done: number;
  found: number;
  notFound: number;
  /** Failed for any reason but suppression. */
  failed: number;
  /** Failed as the person is on the do-not-enrich list (nothing charged). */
  suppressed: number;
  /**
   * Seconds left at the measured pace. Undefined while there is no pace yet (`measured` false), or when the
   * pace says it should be done and it is not (the last rows are being retried): then say so, not "0 s".
   */
  secondsLeft?: number;
  measured: boolean;
}

type Outcome = "found" | "notFound" | "failed" | "suppressed";

function outcomeOf(item: Pick<BatchItem, "status" | "outcome" | "error">): Outcome | undefined {
  if (item.status === "failed") return item.error?.code === "suppressed" ? "suppressed" : "failed";
  if (item.status === "completed") return item.outcome === "found" ? "found" : "notFound";
  return undefined;
}

const PACE_WINDOW_MS = 60_000;

export class RunTracker {
  readonly #outcomes = new Map<string, Outcome>();
  readonly #counts: Record<Outcome, number> = { found: 0, notFound: 0, failed: 0, suppressed: 0 };
  readonly #counters = new Map<string, { done: number; failed: number }>();
  #samples: { at: number; done: number }[] = [];

  constructor(
    readonly total: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** An item event of batch `batchId` (repeats after a reconnect are counted once). */
  item(batchId: string, item: Pick<BatchItem, "index" | "status" | "outcome" | "error">): void {
    const outcome = outcomeOf(item);
    const key = `${batchId}:${item.index}`;
    const before = this.#outcomes.get(key);
    if (outcome && outcome !== before) {
      if (before) this.#counts[before]--;
      this.#counts[outcome]++;
      this.#outcomes.set(key, outcome);
    }
    this.#sample();
  }

  /** A batch's counters (a progress event, or a poll): what counts when item events are not there. */
  counters(batchId: string, summary: { completedItems: number; failedItems: number }): void {
    this.#counters.set(batchId, { done: summary.completedItems + summary.failedItems, failed: summary.failedItems });
    this.#sample();
  }

  snapshot(): RunProgress {
    const { found, notFound, suppressed } = this.#counts;
    const done = this.#doneNow();
    const failed = Math.max(this.#counts.failed, sum([...this.#counters.values()].map((c) => c.failed)) - suppressed);
    const progress: RunProgress = { total: this.total, done, found, notFound, failed, suppressed, measured: false };
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last || last.at === first.at || done >= this.total) return progress;
    const perMs = (last.done - first.done) / (last.at - first.at);
    progress.measured = true;
    const left = (this.total - done) / perMs - (this.now() - last.at);
    if (left > 0) progress.secondsLeft = Math.ceil(left / 1000);
    return progress;
  }

  #doneNow(): number {
    return Math.max(this.#outcomes.size, sum([...this.#counters.values()].map((c) => c.done)));
  }

  #sample(): void {
    const at = this.now();
    const done = this.#doneNow();
    const last = this.#samples.at(-1);
    if (last && last.done === done) return;
    this.#samples.push({ at, done });
    // The last minute of samples, and at least two, so a pace stays measured through a lull.
    while (this.#samples.length > 2 && this.#samples[0]!.at < at - PACE_WINDOW_MS) this.#samples.shift();
  }
}

const sum = (list: readonly number[]) => list.reduce((a, b) => a + b, 0);
