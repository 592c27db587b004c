import * as z from "zod";
import { documented } from "../base/once";
import type { ItemOutcome } from "../contact-info/batch-contract";

// Usage: what finished items add to the day they finished on. Pure, so the batch
// object (which tallies) and the account object (which sums) agree on one shape.

const count = z.number().int().nonnegative();

const sourceUsageSchema = z.object({
  calls: count.meta(
    documented(
      OPENAPI_METADATA && { description: "Items for which this source was asked (its outcome was not skipped)." },
    ),
  ),
  found: count.meta(documented(OPENAPI_METADATA && { description: "Items for which this source found something." })),
  reported: count.default(0).meta(
    documented(
      OPENAPI_METADATA && {
        description: "Contacts this source found that you reported wrong (POST …/feedback), counted once each.",
      },
    ),
  ),
  creditsRefunded: count
    .default(0)
    .meta(documented(OPENAPI_METADATA && { description: "Credits refunded for those reports." })),
});

export const usageCountersSchema = z.object({
  items: count.meta(
    documented(OPENAPI_METADATA && { description: "Items that finished: completed or failed, each counted once." }),
  ),
  found: count,
  notFound: count,
  failed: count,
  fromCache: count,
  credits: count.meta(
    documented(
      OPENAPI_METADATA && { description: "Credits charged for the items that finished (see each item's credits)." },
    ),
  ),
  creditsRefunded: count.meta(
    documented(
      OPENAPI_METADATA && {
        description: "Credits refunded for contacts you reported wrong (POST …/feedback), on the day of the report.",
      },
    ),
  ),
  sources: z
    .record(z.string(), sourceUsageSchema)
    .meta(documented(OPENAPI_METADATA && { description: "Per data source, by name." })),
});

export type UsageCounters = z.infer<typeof usageCountersSchema>;

/** A delta as stored in the batch's outbox; read back from storage, so a missing counter counts 0. */
export const usageDeltaSchema = z.object({
  items: count.default(0),
  found: count.default(0),
  notFound: count.default(0),
  failed: count.default(0),
  fromCache: count.default(0),
  credits: count.default(0),
  creditsRefunded: count.default(0),
  sources: z.record(z.string(), sourceUsageSchema).default({}),
});

export const emptyUsage = (): UsageCounters => ({
  items: 0,
  found: 0,
  notFound: 0,
  failed: 0,
  fromCache: 0,
  credits: 0,
  creditsRefunded: 0,
  sources: {},
});

const emptySource = () => ({ calls: 0, found: 0, reported: 0, creditsRefunded: 0 });

export const isEmptyUsage = (usage: UsageCounters): boolean =>
  usage.items === 0 && usage.creditsRefunded === 0 && Object.keys(usage.sources).length === 0;

/**
 * Adds `changed` items that finished with `outcome` (the item and the followers
 * that took its result). The sources count once: they were asked once, for the item.
 */
export function tally(usage: UsageCounters, outcome: ItemOutcome, changed: number): void {
  if (changed === 0) return;
  usage.items += changed;
  if (outcome.status === "failed") {
    usage.failed += changed;
  } else {
    if (outcome.outcome === "found") usage.found += changed;
    else usage.notFound += changed;
    if (outcome.fromCache) usage.fromCache += changed;
  }
  for (const { name, outcome: answer, kind } of outcome.sources ?? []) {
    if (answer === "skipped") continue;
    // A verifier is counted apart from a finder of the same name (the sandbox is both).
    const key = kind === "verifier" ? `${name}:verifier` : name;
    const source = usage.sources[key] ?? emptySource();
    source.calls += 1;
    if (answer === "found") source.found += 1;
    usage.sources[key] = source;
  }
}

/** Adds `failed` items that failed without reaching any source (validation, a deadline, a lost message). */
export function tallyFailed(usage: UsageCounters, failed: number): void {
  usage.items += failed;
  usage.failed += failed;
}

/** Sums `from` into `into`. */
export function addUsage(into: UsageCounters, from: UsageCounters): void {
  into.items += from.items;
  into.found += from.found;
  into.notFound += from.notFound;
  into.failed += from.failed;
  into.fromCache += from.fromCache;
  into.credits += from.credits;
  into.creditsRefunded += from.creditsRefunded;
  for (const [name, { calls, found, reported, creditsRefunded }] of Object.entries(from.sources)) {
    const source = into.sources[name] ?? emptySource();
    source.calls += calls;
    source.found += found;
    source.reported += reported;
    source.creditsRefunded += creditsRefunded;
    into.sources[name] = source;
  }
}
