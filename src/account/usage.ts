import * as z from "zod";
import type { ItemOutcome } from "../contact-info/batch-contract";
import type { Email } from "../contact-info/contact";
import { latencyBucket } from "./latency";

// Usage: what finished items add to the day they finished on. Pure, so the batch
// object (which tallies) and the account object (which sums) agree on one shape.

const count = z.number().int().nonnegative();

const sourceUsageSchema = z.object({
  calls: count.meta(
    OPENAPI_METADATA ? { description: "Items for which this source was asked (its outcome was not skipped)." } : {},
  ),
  found: count.meta(OPENAPI_METADATA ? { description: "Items for which this source found something." } : {}),
  reported: count.meta(
    OPENAPI_METADATA
      ? {
          description: "Contacts this source found that you reported wrong (POST …/feedback), counted once each.",
        }
      : {},
  ),
  creditsRefunded: count.meta(OPENAPI_METADATA ? { description: "Credits refunded for those reports." } : {}),
  verifiedValid: count.meta(
    OPENAPI_METADATA
      ? {
          description: "Items for which an email this source found was judged valid by a verifier.",
        }
      : {},
  ),
  rateLimited: count.meta(
    OPENAPI_METADATA
      ? {
          description: "Items whose last attempt found this source answering its rate limit (429 or its own status).",
        }
      : {},
  ),
});

export const usageCountersSchema = z.object({
  items: count.meta(
    OPENAPI_METADATA ? { description: "Items that finished: completed or failed, each counted once." } : {},
  ),
  found: count,
  notFound: count,
  failed: count,
  fromCache: count,
  credits: count.meta(
    OPENAPI_METADATA ? { description: "Credits charged for the items that finished (see each item's credits)." } : {},
  ),
  creditsRefunded: count.meta(
    OPENAPI_METADATA
      ? {
          description: "Credits refunded for contacts you reported wrong (POST …/feedback), on the day of the report.",
        }
      : {},
  ),
  sources: z
    .record(z.string(), sourceUsageSchema)
    .meta(OPENAPI_METADATA ? { description: "Per data source, by name." } : {}),
});

export type UsageCounters = z.infer<typeof usageCountersSchema>;

/** Per source, a histogram of its calls' latencies (latencyBucket, scorecard.ts): outbox only, for the scorecards. */
const latenciesSchema = z.record(z.string(), z.record(z.string(), count));

/** Per company domain and source, what the learned order weighs (src/enrichment/waterfall-order.ts): outbox only. */
const domainsSchema = z.record(z.string(), z.record(z.string(), z.object({ calls: count, hits: count, valid: count })));

/** What a batch's outbox row carries: usage, the latencies behind the scorecards' medians, the sources' records by domain. */
export type UsageDelta = UsageCounters & {
  latencies: z.infer<typeof latenciesSchema>;
  domains: z.infer<typeof domainsSchema>;
};

/**
 * A delta as stored in the batch's outbox, validated when read back. A row written from counters alone
 * (a registration, a feedback refund) has no latencies or domains: they count as none.
 */
export const usageDeltaSchema = usageCountersSchema.extend({
  latencies: latenciesSchema.default({}),
  domains: domainsSchema.default({}),
});

export const emptyUsage = (): UsageDelta => ({
  items: 0,
  found: 0,
  notFound: 0,
  failed: 0,
  fromCache: 0,
  credits: 0,
  creditsRefunded: 0,
  sources: {},
  latencies: {},
  domains: {},
});

export const emptySource = () => ({
  calls: 0,
  found: 0,
  reported: 0,
  creditsRefunded: 0,
  verifiedValid: 0,
  rateLimited: 0,
});

export const isEmptyUsage = (usage: UsageCounters & Partial<UsageDelta>): boolean =>
  usage.items === 0 &&
  usage.creditsRefunded === 0 &&
  Object.keys(usage.sources).length === 0 &&
  Object.keys(usage.domains ?? {}).length === 0;

/** Whether an email `source` found was judged valid. */
const validFrom = (emails: readonly Email[], source: string) =>
  emails.some((email) => email.source === source && email.status === "valid");

/**
 * Adds `changed` items that finished with `outcome` (the item and the followers
 * that took its result). The sources count once: they were asked once, for the item.
 */
export function tally(usage: UsageDelta, outcome: ItemOutcome, changed: number): void {
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
    if (kind === undefined && outcome.status === "completed" && validFrom(outcome.emails, name))
      source.verifiedValid += 1;
    usage.sources[key] = source;
  }
  for (const { name, ms, rateLimited, found, domain } of outcome.calls ?? []) {
    const source = usage.sources[name] ?? emptySource();
    if (rateLimited) source.rateLimited += 1;
    usage.sources[name] = source;
    const histogram = usage.latencies[name] ?? {};
    const bucket = String(latencyBucket(ms));
    histogram[bucket] = (histogram[bucket] ?? 0) + 1;
    usage.latencies[name] = histogram;
    if (domain === undefined) continue;
    const records = usage.domains[domain] ?? {};
    const record = records[name] ?? { calls: 0, hits: 0, valid: 0 };
    record.calls += 1;
    if (found) record.hits += 1;
    if (found && outcome.status === "completed" && validFrom(outcome.emails, name)) record.valid += 1;
    records[name] = record;
    usage.domains[domain] = records;
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
  for (const [name, counted] of Object.entries(from.sources)) {
    const source = into.sources[name] ?? emptySource();
    source.calls += counted.calls;
    source.found += counted.found;
    source.reported += counted.reported;
    source.creditsRefunded += counted.creditsRefunded;
    source.verifiedValid += counted.verifiedValid;
    source.rateLimited += counted.rateLimited;
    into.sources[name] = source;
  }
}
