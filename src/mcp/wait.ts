import { readBatchPage } from "../batch/read-operations";
import { MAX_PAGE_SIZE } from "../contact-info/status-query";
import type { Caller } from "../operations/caller";
import type { ToolContext } from "./tool";

/** How long enrich_contact_info waits for its batch: under the time clients give a tool call. */
const WAIT_MS = 25_000;
const POLL_MS = 1_000;

/**
 * Reads the batch until it is done or WAIT_MS passed, reporting progress (items finished of all)
 * whenever it changed; answers the batch as the status route shows it, with what is left to poll.
 */
export async function waitForBatch(caller: Caller, batchId: string, context: ToolContext) {
  const deadline = Date.now() + WAIT_MS;
  const query = { limit: String(MAX_PAGE_SIZE) };
  let reported = -1;
  for (;;) {
    const page = await readBatchPage(caller, batchId, query);
    const finished = page.completedItems + page.failedItems;
    if (finished !== reported) {
      await context.progress(finished, page.totalItems, `${finished} of ${page.totalItems} item(s) finished`);
      reported = finished;
    }
    const done = page.status === "completed";
    if (done || Date.now() >= deadline) {
      return {
        batchId,
        status: page.status,
        creditsCharged: page.creditsCharged,
        maxCredits: page.maxCredits,
        totalItems: page.totalItems,
        items: JSON.parse(page.itemsJson) as Record<string, unknown>[],
        nextCursor: page.nextCursor,
        message: done
          ? `Done: ${page.completedItems} item(s) processed, ${page.failedItems} failed; ${page.creditsCharged} credit(s) charged.`
          : `Still running: ${finished} of ${page.totalItems} item(s) finished. Read the rest with get_contact_info_batch {"batchId": "${batchId}"}.`,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
