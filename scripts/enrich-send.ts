// Pass 2 of the enrich command, the API's side of it: the valid rows submitted as batches
// of at most BATCH_ITEMS (fewer when the deployment says so), then waited for together with
// the progress shown as items finish; or, with --estimate, only priced. The passes over the
// file are enrich-passes.ts; writing the results, enrich-output.ts.
import {
  type Budget,
  type Client,
  type Estimate,
  ProblemError,
  RunTracker,
  type Submitted,
  sumEstimates,
} from "../client/src/index";
import { BATCH_ITEMS, batchKey } from "../src/file-core/index";
import { type Checked, itemChunks, type Source } from "./enrich-passes";
import type { progressReporter } from "./enrich-progress";

/**
 * Pass 2: every chunk of valid rows submitted, one after another. The keys are the console page's
 * (batchKey): the same rows sent again within 24 h, from here or the page, answer the same batches.
 * A deployment with a lower MAX_BATCH_ITEMS says so in its 413 (maxItems): smaller batches then.
 */
async function submitAll(
  client: Client,
  source: Source,
  checked: Checked,
  note: (text: string) => void,
): Promise<Submitted[]> {
  for (let size = BATCH_ITEMS; ; ) {
    const total = Math.ceil(checked.valid / size);
    const submitted: Submitted[] = [];
    try {
      for await (const items of itemChunks(source, checked.mapping, size)) {
        note(`submitting batch ${submitted.length + 1} of ${total}`);
        const idempotencyKey = batchKey(checked.itemsHash, submitted.length, total);
        submitted.push(await client.submit(items, { idempotencyKey }));
      }
      return submitted;
    } catch (error) {
      const maxItems =
        error instanceof ProblemError && error.problem.code === "too_many_items"
          ? Number(error.problem.maxItems)
          : Number.NaN;
      if (submitted.length > 0 || !Number.isInteger(maxItems) || maxItems < 1 || maxItems >= size) throw error;
      size = maxItems;
    }
  }
}

/** What sending made: the batches, in the file's order, and the credits they charged (made by this run: new). */
interface Sent {
  batchIds: string[];
  creditsCharged: number;
  newCredits: number;
  /** When every batch was made before for the same rows (Idempotent-Replayed): the first one's creation time. */
  repeatOf: string | undefined;
}

/**
 * Submits the batches (submitAll), then waits for them all, reporting progress as their
 * counters and items come in; the first batch whose wait fails stops the others' waits.
 */
export async function sendAndWait(
  client: Client,
  source: Source,
  checked: Checked,
  reporter: ReturnType<typeof progressReporter>,
): Promise<Sent> {
  const tracker = new RunTracker(checked.valid);
  const stop = new AbortController();
  const sent: Sent = { batchIds: [], creditsCharged: 0, newCredits: 0, repeatOf: undefined };
  // Said once, before anything is spent; not kept beside the counts.
  reporter.note(budgetLine(await client.budget()), true);
  reporter.note("");
  const batches = await submitAll(client, source, checked, (text) => reporter.note(text));
  reporter.note("");
  await Promise.all(
    batches.map(async ({ batchId, replayed }) => {
      try {
        const summary = await client.waitForBatch(batchId, {
          signal: stop.signal,
          onProgress: (counters) => {
            tracker.counters(batchId, counters);
            reporter.update(tracker.snapshot());
          },
          onItem: (item) => {
            tracker.item(batchId, item);
            reporter.update(tracker.snapshot());
          },
        });
        sent.creditsCharged += summary.creditsCharged;
        if (!replayed) sent.newCredits += summary.creditsCharged;
        else if (sent.repeatOf === undefined || summary.createdAt < sent.repeatOf) sent.repeatOf = summary.createdAt;
      } catch (error) {
        stop.abort(error);
        throw error;
      }
    }),
  );
  reporter.update(tracker.snapshot(), true);
  if (batches.some((batch) => !batch.replayed)) sent.repeatOf = undefined;
  return { ...sent, batchIds: batches.map((batch) => batch.batchId) };
}

/** --estimate: the API's estimate of each batch the file would make, summed; nothing is submitted. */
export async function estimate(client: Client, source: Source, checked: Checked): Promise<void> {
  const parts: Estimate[] = [];
  for await (const items of itemChunks(source, checked.mapping, BATCH_ITEMS)) parts.push(await client.estimate(items));
  const total = sumEstimates(parts);
  console.log(budgetLine(await client.budget()));
  console.log(
    `estimate for ${checked.valid} rows to send: ${total.validItems} valid (${total.duplicateItems} duplicates, ${total.cachedItems} cached), ${total.invalidItems} invalid; at most ${total.maxCredits} credits. Nothing was submitted.`,
  );
}

/** The month's budget before spending (issue 50): what a batch may still reserve, or that none is set. */
export function budgetLine({ monthlyCredits, usedThisMonth, reserved, remaining, resetsAt, key }: Budget): string {
  const month =
    monthlyCredits === null || remaining === null
      ? `no monthly budget set (${usedThisMonth} credits used this month)`
      : `budget: ${remaining} of ${monthlyCredits} credits remain this month (${usedThisMonth} used, ${reserved} reserved by open batches; resets ${resetsAt.slice(0, 10)})`;
  return key ? `${month}; this key's cap: ${key.remaining} of ${key.monthlyCredits} remain` : month;
}
