// The caller's account: usage for the last 30 days, rate limits, and recent batches.
import type { Api } from "./api";
import { byId, fillTable, h } from "./dom";
import { pastRuns } from "./job-store";
import { usageChart } from "./usage-chart";
import { count, duration, LIMIT_NAMES, num, perWindow } from "./words";

export async function showAccount(api: Api): Promise<void> {
  const [usage, limits, batches] = await Promise.all([api.usage(), api.rateLimits(), api.batches()]);
  const { totals } = usage;
  byId("usage").replaceChildren(
    usageChart(usage),
    h(
      "figcaption",
      {},
      `${count(totals.items, "row")}: ${num(totals.found)} found, ${num(totals.notFound)} not found, ${num(totals.failed)} failed, ${num(totals.fromCache)} from cache (failed in red); ${count(totals.credits, "credit")} charged.`,
    ),
  );
  fillTable(
    byId<HTMLTableElement>("limits"),
    ["What", "Limit", "Used", "Left", "Resets in"],
    limits.map((limit) => [
      LIMIT_NAMES[limit.endpointType] ?? limit.endpointType,
      perWindow(limit.limit, limit.windowSeconds),
      num(limit.used),
      num(limit.remaining),
      duration(limit.resetSeconds),
    ]),
  );
  // The file each batch came from, when it was sent from this browser (the API keeps no file names).
  const fileOf = new Map(
    pastRuns().flatMap((job) => job.batches.map((batch) => [batch.batchId, job.fileName] as const)),
  );
  fillTable(
    byId<HTMLTableElement>("batches"),
    ["Created", "File", "Status", "Rows", "Done", "Failed", "Credits"],
    batches.batches.map((batch) => [
      new Date(batch.createdAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" }),
      fileOf.get(batch.id) ?? "(sent elsewhere)",
      batch.status,
      num(batch.totalItems),
      num(batch.completedItems),
      num(batch.failedItems),
      num(batch.creditsCharged),
    ]),
    batches.batches.length === 0 ? "No batches yet." : undefined,
  );
}

export function clearAccount(): void {
  byId("usage").replaceChildren();
  byId("limits").replaceChildren();
  byId("batches").replaceChildren();
}
