// A file's rows as batches: planned with Idempotency-Keys from the file's content
// and mapping (so submitting again, after a reload, answers the same batches),
// watched until done, then read back row by row.
import { type Client, type Estimate, type RunProgress, RunTracker, sumEstimates } from "../client/src/index";
import type { PersonInput } from "../src/contact-info/person";
import { BATCH_ITEMS, batchKey } from "../src/file-core/index";
import type { Answer } from "./file-adapter";
import { type PlannedBatch, type SavedJob, saveJob } from "./job-store";

export async function sha256Hex(data: BufferSource | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function planBatches(rows: number, runHash: string): PlannedBatch[] {
  const count = Math.ceil(rows / BATCH_ITEMS);
  return Array.from({ length: count }, (_, i) => ({
    idempotencyKey: batchKey(runHash, i, count),
    start: i * BATCH_ITEMS,
    count: Math.min(BATCH_ITEMS, rows - i * BATCH_ITEMS),
  }));
}

/**
 * What sending `items` would make and cost at most (POST …/estimate per planned batch,
 * summed): creates nothing, charges nothing.
 */
export async function estimateJob(client: Client, items: readonly PersonInput[]): Promise<Estimate> {
  const parts: Estimate[] = [];
  for (const { start, count } of planBatches(items.length, "estimate")) {
    parts.push(await client.estimate(items.slice(start, start + count)));
  }
  return sumEstimates(parts);
}

/** Submits each planned batch not yet submitted, saving its id as soon as it is known. */
export async function submitJob(client: Client, job: SavedJob, items: readonly PersonInput[]): Promise<void> {
  for (const batch of job.batches) {
    if (batch.batchId !== undefined) continue;
    const receipt = await client.submit(items.slice(batch.start, batch.start + batch.count), {
      idempotencyKey: batch.idempotencyKey,
    });
    batch.batchId = receipt.batchId;
    // A batch made before, for the same rows (this file sent earlier, here or with `npm run enrich`).
    batch.replayed = receipt.replayed;
    saveJob(job);
  }
}

const STREAMS_AT_ONCE = 4;

/**
 * Follows every batch (its event stream with item events, else polling) until all are completed, telling
 * the counts by outcome as each item finishes, and the time left at the measured pace.
 */
export async function watchJob(
  client: Client,
  job: Pick<SavedJob, "rows" | "batches">,
  onProgress: (progress: RunProgress) => void,
  signal: AbortSignal,
): Promise<Ran> {
  const ran: Ran = { creditsCharged: 0, newCredits: 0, repeatOf: undefined };
  const tracker = new RunTracker(job.rows);
  const tell = () => onProgress(tracker.snapshot());
  // Each wait holds a connection open (the batch's event stream); a browser gives an origin only six
  // over HTTP/1.1 (`npm run dev`), so a few at a time leave room for the page's other requests.
  const queue = [...job.batches];
  const follower = async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      const { batchId } = batch;
      if (batchId === undefined) throw new Error("a batch was never submitted");
      const summary = await client.waitForBatch(batchId, {
        signal,
        onProgress: (counters) => {
          tracker.counters(batchId, counters);
          tell();
        },
        onItem: (item) => {
          tracker.item(batchId, item);
          tell();
        },
      });
      ran.creditsCharged += summary.creditsCharged;
      if (!batch.replayed) ran.newCredits += summary.creditsCharged;
      else if (ran.repeatOf === undefined || summary.createdAt < ran.repeatOf) ran.repeatOf = summary.createdAt;
    }
  };
  await Promise.all(Array.from({ length: Math.min(STREAMS_AT_ONCE, queue.length) }, follower));
  // A repeat only when no batch is new: a run cut short before and finished now is a run of its own.
  if (job.batches.some((batch) => !batch.replayed)) ran.repeatOf = undefined;
  return ran;
}

/** What a run charged: in all, and for batches this run made; `repeatOf` when every batch was made before (then). */
export interface Ran {
  creditsCharged: number;
  newCredits: number;
  repeatOf: string | undefined;
}

/** Every item's answer, by its position among the items sent. */
export async function collectAnswers(client: Client, job: SavedJob): Promise<Answer[]> {
  const answers: Answer[] = new Array(job.rows);
  for (const { batchId, start } of job.batches) {
    if (batchId === undefined) continue;
    for await (const item of client.items(batchId))
      if (start + item.index < job.rows) answers[start + item.index] = { batchId, item };
  }
  return answers;
}
