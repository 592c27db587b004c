// A file's rows as batches: planned with Idempotency-Keys from the file's content
// and mapping (so submitting again, after a reload, answers the same batches),
// watched until done, then read back row by row.
import type { Client, Estimate } from "../client/src/index";
import type { PersonInput } from "../src/contact-info/person";
import type { Answer } from "./file-adapter";
import { type PlannedBatch, type SavedJob, saveJob } from "./job-store";

// The API's default MAX_BATCH_ITEMS.
const BATCH_ITEMS = 10_000;

export interface Progress {
  total: number;
  done: number;
  found: number;
  failed: number;
  /** Seconds until done at the pace so far; undefined until there is a pace. */
  secondsLeft?: number;
}

export async function sha256Hex(data: BufferSource | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function planBatches(rows: number, runHash: string): PlannedBatch[] {
  const count = Math.ceil(rows / BATCH_ITEMS);
  return Array.from({ length: count }, (_, i) => ({
    idempotencyKey: `console-${runHash.slice(0, 32)}-${i + 1}-of-${count}`,
    start: i * BATCH_ITEMS,
    count: Math.min(BATCH_ITEMS, rows - i * BATCH_ITEMS),
  }));
}

/**
 * What sending `items` would make and cost at most (POST …/estimate per planned batch,
 * summed): creates nothing, charges nothing.
 */
export async function estimateJob(client: Client, items: readonly PersonInput[]): Promise<Estimate> {
  const total: Estimate = { itemCount: 0, validItems: 0, invalidItems: 0, duplicateItems: 0, cachedItems: 0, maxCredits: 0 };
  for (const { start, count } of planBatches(items.length, "estimate")) {
    const answer = await client.estimate(items.slice(start, start + count));
    for (const key of Object.keys(total) as (keyof Estimate)[]) total[key] += answer[key];
  }
  return total;
}

/** Submits each planned batch not yet submitted, saving its id as soon as it is known. */
export async function submitJob(client: Client, job: SavedJob, items: readonly PersonInput[]): Promise<void> {
  for (const batch of job.batches) {
    if (batch.batchId !== undefined) continue;
    const receipt = await client.submit(items.slice(batch.start, batch.start + batch.count), { idempotencyKey: batch.idempotencyKey });
    batch.batchId = receipt.batchId;
    saveJob(job);
  }
}

const STREAMS_AT_ONCE = 4;

/** Follows every batch (its event stream, else polling) until all are completed, telling the counts as they move. */
export async function watchJob(client: Client, job: SavedJob, onProgress: (progress: Progress) => void, signal: AbortSignal) {
  const done = job.batches.map(() => 0);
  const failed = job.batches.map(() => 0);
  const found = job.batches.map(() => 0);
  const startedAt = Date.now();
  let doneAtStart: number | undefined;
  const tell = () => {
    const progress: Progress = { total: job.rows, done: sum(done), found: sum(found), failed: sum(failed) };
    doneAtStart ??= progress.done;
    const seconds = (Date.now() - startedAt) / 1000;
    const rate = (progress.done - doneAtStart) / seconds;
    if (rate > 0 && progress.done < progress.total) progress.secondsLeft = Math.ceil((progress.total - progress.done) / rate);
    onProgress(progress);
  };
  // Each wait holds a connection open (the batch's event stream); a browser gives an origin only six
  // over HTTP/1.1 (`npm run dev`), so a few at a time leave room for the page's other requests.
  const queue = job.batches.map((batch, i) => ({ batch, i }));
  const follower = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { batch, i } = next;
      if (batch.batchId === undefined) throw new Error("a batch was never submitted");
      await client.waitForBatch(batch.batchId, {
        signal,
        onProgress: (summary) => {
          done[i] = summary.completedItems + summary.failedItems;
          failed[i] = summary.failedItems;
          tell();
        },
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(STREAMS_AT_ONCE, queue.length) }, follower));
}

const sum = (list: readonly number[]) => list.reduce((a, b) => a + b, 0);

/** Every item's answer, by its position among the items sent. */
export async function collectAnswers(client: Client, job: SavedJob): Promise<Answer[]> {
  const answers: Answer[] = new Array(job.rows);
  for (const { batchId, start } of job.batches) {
    if (batchId === undefined) continue;
    for await (const item of client.items(batchId)) if (start + item.index < job.rows) answers[start + item.index] = { batchId, item };
  }
  return answers;
}
