import type { Learned } from "./learned";
import type { SourceCounts } from "./scorecard";
import { addUsage, emptyUsage, isEmptyUsage, type UsageDelta } from "./usage";
import { daysOf, type UsageRange } from "./usage-query";
import type { UsageReport } from "./views";

// The account's usage tables (docs/storage.md, "Account"): what a batch's outbox rows add, per day and
// source, and the two reads of them: the usage report and the sources' scorecards.

type DayRow = {
  day: string;
  items: number;
  found: number;
  not_found: number;
  failed: number;
  from_cache: number;
  credits: number;
  credits_refunded: number;
};
type SourceRow = {
  day: string;
  source: string;
  calls: number;
  found: number;
  reported: number;
  credits_refunded: number;
  verified_valid: number;
  rate_limited: number;
};

/** Adds one outbox row's delta to its day: the caller applies each row once (the batch's reported_seq). */
export function addUsageRows(sql: SqlStorage, day: string, usage: UsageDelta): void {
  if (isEmptyUsage(usage)) return;
  sql.exec(
    `INSERT INTO usage_days (day, items, found, not_found, failed, from_cache, credits, credits_refunded)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (day) DO UPDATE SET items = items + excluded.items, found = found + excluded.found,
       not_found = not_found + excluded.not_found, failed = failed + excluded.failed, from_cache = from_cache + excluded.from_cache,
       credits = credits + excluded.credits, credits_refunded = credits_refunded + excluded.credits_refunded`,
    day,
    usage.items,
    usage.found,
    usage.notFound,
    usage.failed,
    usage.fromCache,
    usage.credits,
    usage.creditsRefunded,
  );
  for (const [source, counted] of Object.entries(usage.sources)) {
    sql.exec(
      `INSERT INTO usage_sources (day, source, calls, found, reported, credits_refunded, verified_valid, rate_limited)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (day, source) DO UPDATE SET calls = calls + excluded.calls, found = found + excluded.found,
         reported = reported + excluded.reported, credits_refunded = credits_refunded + excluded.credits_refunded,
         verified_valid = verified_valid + excluded.verified_valid, rate_limited = rate_limited + excluded.rate_limited`,
      day,
      source,
      counted.calls,
      counted.found,
      counted.reported,
      counted.creditsRefunded,
      counted.verifiedValid,
      counted.rateLimited,
    );
  }
  for (const [domain, records] of Object.entries(usage.domains)) {
    for (const [source, { calls, hits, valid }] of Object.entries(records)) {
      sql.exec(
        `INSERT INTO domain_sources (domain, source, calls, hits, valid) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (domain, source) DO UPDATE SET calls = calls + excluded.calls, hits = hits + excluded.hits,
           valid = valid + excluded.valid`,
        domain,
        source,
        calls,
        hits,
        valid,
      );
    }
  }
  for (const [source, histogram] of Object.entries(usage.latencies)) {
    for (const [bucket, calls] of Object.entries(histogram)) {
      sql.exec(
        `INSERT INTO usage_latency (day, source, bucket, calls) VALUES (?, ?, ?, ?)
         ON CONFLICT (day, source, bucket) DO UPDATE SET calls = calls + excluded.calls`,
        day,
        source,
        Number(bucket),
        calls,
      );
    }
  }
}

/** What the learned order weighs for a group (waterfall-order.ts): the finders' records overall (the range) and per domain. */
export function readLearned(sql: SqlStorage, range: UsageRange, domains: readonly string[]): Learned {
  const sources: Learned["sources"] = {};
  for (const row of sql.exec<{ source: string; calls: number; hits: number; valid: number }>(
    `SELECT source, sum(calls) AS calls, sum(found) AS hits, sum(verified_valid) AS valid FROM usage_sources
     WHERE day BETWEEN ? AND ? AND source NOT LIKE '%:verifier' GROUP BY source`,
    range.from,
    range.to,
  ))
    sources[row.source] = { calls: row.calls, hits: row.hits, valid: row.valid };
  const byDomain: Learned["domains"] = {};
  for (const row of sql.exec<{ domain: string; source: string; calls: number; hits: number; valid: number }>(
    "SELECT domain, source, calls, hits, valid FROM domain_sources WHERE domain IN (SELECT value FROM json_each(?))",
    JSON.stringify(domains),
  ))
    byDomain[row.domain] = {
      ...byDomain[row.domain],
      [row.source]: { calls: row.calls, hits: row.hits, valid: row.valid },
    };
  return { sources, domains: byDomain };
}

/** Usage per UTC day in the range, every day listed, and the totals. */
export function readUsage(sql: SqlStorage, range: UsageRange): UsageReport {
  const days = new Map(daysOf(range).map((day) => [day, emptyUsage()]));
  for (const row of sql.exec<DayRow>("SELECT * FROM usage_days WHERE day BETWEEN ? AND ?", range.from, range.to)) {
    addUsage(days.get(row.day) ?? emptyUsage(), {
      items: row.items,
      found: row.found,
      notFound: row.not_found,
      failed: row.failed,
      fromCache: row.from_cache,
      credits: row.credits,
      creditsRefunded: row.credits_refunded,
      sources: {},
    });
  }
  for (const row of sql.exec<SourceRow>(
    "SELECT * FROM usage_sources WHERE day BETWEEN ? AND ?",
    range.from,
    range.to,
  )) {
    const day = days.get(row.day);
    if (day) day.sources[row.source] = sourceCounters(row);
  }
  const totals = emptyUsage();
  for (const day of days.values()) addUsage(totals, day);
  const { latencies: _, domains: __, ...counters } = totals;
  return {
    ...range,
    days: [...days].map(([date, { latencies: ___, domains: ____, ...usage }]) => ({ date, ...usage })),
    totals: counters,
  };
}

const sourceCounters = (row: Omit<SourceRow, "day" | "source">) => ({
  calls: row.calls,
  found: row.found,
  reported: row.reported,
  creditsRefunded: row.credits_refunded,
  verifiedValid: row.verified_valid,
  rateLimited: row.rate_limited,
});

/** Per data source (verifiers as `<name>:verifier`), its sums over the range and its latency histogram. */
export function readSourceCounts(sql: SqlStorage, range: UsageRange): SourceCounts[] {
  const latencies = new Map<string, { bucket: number; calls: number }[]>();
  for (const { source, bucket, calls } of sql.exec<{ source: string; bucket: number; calls: number }>(
    `SELECT source, bucket, sum(calls) AS calls FROM usage_latency WHERE day BETWEEN ? AND ? GROUP BY source, bucket`,
    range.from,
    range.to,
  )) {
    latencies.set(source, [...(latencies.get(source) ?? []), { bucket, calls }]);
  }
  return sql
    .exec<Omit<SourceRow, "day">>(
      `SELECT source, sum(calls) AS calls, sum(found) AS found, sum(reported) AS reported,
         sum(credits_refunded) AS credits_refunded, sum(verified_valid) AS verified_valid, sum(rate_limited) AS rate_limited
       FROM usage_sources WHERE day BETWEEN ? AND ? GROUP BY source ORDER BY source`,
      range.from,
      range.to,
    )
    .toArray()
    .map((row) => {
      const { found, ...counted } = sourceCounters(row);
      return { source: row.source, hits: found, ...counted, latency: latencies.get(row.source) ?? [] };
    });
}
