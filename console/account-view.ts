// The caller's account: usage for the last 30 days, rate limits, and recent batches.
import type { Api } from "./api";
import { byId, fillTable, h } from "./dom";
import { usageChart } from "./usage-chart";

export async function showAccount(api: Api): Promise<void> {
  const [usage, limits, batches] = await Promise.all([api.usage(), api.rateLimits(), api.batches()]);
  const { totals } = usage;
  byId("usage").replaceChildren(
    usageChart(usage),
    h(
      "figcaption",
      {},
      `${totals.items} items: ${totals.found} found, ${totals.notFound} not found, ${totals.failed} failed, ${totals.fromCache} from cache (failed in red).`,
    ),
  );
  fillTable(
    byId<HTMLTableElement>("limits"),
    ["Endpoint type", "Tier", "Limit", "Window", "Used", "Remaining", "Resets in"],
    limits.map((limit) => [
      limit.endpointType,
      limit.tier,
      limit.limit,
      `${limit.windowSeconds} s`,
      limit.used,
      limit.remaining,
      `${limit.resetSeconds} s`,
    ]),
  );
  fillTable(
    byId<HTMLTableElement>("batches"),
    ["Created", "Status", "Items", "Completed", "Failed", "Batch id"],
    batches.batches.map((batch) => [
      new Date(batch.createdAt).toLocaleString(),
      batch.status,
      batch.totalItems,
      batch.completedItems,
      batch.failedItems,
      batch.id,
    ]),
    batches.batches.length === 0 ? "No batches yet." : undefined,
  );
}

export function clearAccount(): void {
  byId("usage").replaceChildren();
  byId("limits").replaceChildren();
  byId("batches").replaceChildren();
}
