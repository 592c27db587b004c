// npm run bench:cost's arithmetic and its section of bench/README.md: a run's tally (bench/cost/meter.ts)
// per 1,000 items, the floor's units for the same work, Cloudflare's prices, and the targets.
import { existsSync, readFileSync } from "node:fs";
import type { Tally } from "./cost/meter";

export const COST_RESULTS = "bench/results/cost.json";

/** Cloudflare's published prices past the Workers Paid plan's included usage, USD, read 2026-11-27 (bench/README.md cites the pages). */
export const PRICES = {
  workerRequestPerMillion: 0.3,
  workerCpuMsPerMillion: 0.02,
  objectRequestPerMillion: 0.15,
  objectGbSecondPerMillion: 12.5,
  /** Duration is billed for the 128 MB an object is given. */
  objectGb: 0.125,
  rowReadPerMillion: 0.001,
  rowWrittenPerMillion: 1.0,
  queueOperationPerMillion: 0.4,
  kvReadPerMillion: 0.5,
  kvWritePerMillion: 5.0,
};

/** The least design's group: the items one consumer invocation takes of a batch (10 messages of ITEMS_PER_MESSAGE). */
export const FLOOR_GROUP_ITEMS = 100;

/** Billable units per 1,000 items. */
export interface Units {
  workerInvocations: number;
  queueMessages: number;
  queueOperations: number;
  objectRequests: number;
  /** Object requests other than the vendor governor's leases (a live batch's budget). */
  objectRequestsNoGovernor: number;
  rowsRead: number;
  /** Rows written, less the person index's and the erasure's bookkeeping (counted apart). */
  rowsWritten: number;
  rowsWrittenApart: number;
  kvReads: number;
  kvWrites: number;
  cpuMs: number | null;
  objectActiveSeconds: number;
}

export interface CostRun {
  environment: "test" | "live";
  items: number;
  completeMs: number;
  creditsCharged: number;
  tally: Tally;
  /** workerd's CPU over the batch's span, its idle rate's share of it, and the difference. */
  cpu: { workerdMs: number; idleMs: number; cpuMs: number } | null;
  units: Units;
  floor: Units;
  dollars: Record<string, number>;
  floorDollars: Record<string, number>;
}

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

/** A tally of `items` items as units per 1,000 items. */
export function unitsOf(tally: Tally, items: number, cpuMs: number | null): Units {
  const per = (n: number) => (n * 1000) / items;
  const classes = Object.entries(tally.classes);
  const requests = (only: (cls: string) => boolean) =>
    sum(classes.filter(([cls]) => only(cls)).map(([, t]) => sum(Object.values(t.requests)) + t.alarms));
  const sentOps = sum(Object.values(tally.sent).map((s) => s.operations));
  const readOps = sum(Object.values(tally.deliveredOperations));
  // Each delivery is retried (read again later) or acked (deleted once): a delete per delivery not retried.
  const deletes = sum(Object.values(tally.delivered)) - sum(Object.values(tally.retried));
  const apart = sum(classes.flatMap(([, t]) => Object.values(t.rowsWrittenApart)));
  return {
    workerInvocations: per(tally.fetch + sum(Object.values(tally.queueInvocations))),
    queueMessages: per(sum(Object.values(tally.sent).map((s) => s.messages))),
    queueOperations: per(sentOps + readOps + deletes),
    objectRequests: per(requests(() => true)),
    objectRequestsNoGovernor: per(requests((cls) => cls !== "VendorGovernor")),
    rowsRead: per(sum(classes.map(([, t]) => t.rowsRead))),
    rowsWritten: per(sum(classes.map(([, t]) => t.rowsWritten)) - apart),
    rowsWrittenApart: per(apart),
    kvReads: per(tally.kv.reads),
    kvWrites: per(tally.kv.writes + tally.kv.deletes),
    cpuMs: cpuMs === null ? null : per(cpuMs),
    objectActiveSeconds: per(sum(classes.map(([, t]) => t.activeMs)) / 1000),
  };
}

/**
 * The least design doing the same work, per 1,000 items of a batch of `items`: per item one row
 * written at creation and one at its result (and the row each result is read from); per group of
 * FLOOR_GROUP_ITEMS one queue message (written, read, deleted: 3 operations), one consumer
 * invocation and one call to the batch object; per batch the submit (one invocation), one
 * creation call and one report (a call and a row). In `live`, the result cache as ours uses it:
 * one read per item, and the writes we made (the results worth caching are the work).
 */
export function floorOf(environment: "test" | "live", items: number, ours: Units): Units {
  const groups = 1000 / FLOOR_GROUP_ITEMS;
  const batches = 1000 / items;
  return {
    workerInvocations: batches + groups,
    queueMessages: groups,
    queueOperations: 3 * groups,
    objectRequests: 2 * batches + groups,
    objectRequestsNoGovernor: 2 * batches + groups,
    rowsRead: 1000,
    rowsWritten: 2000 + batches,
    rowsWrittenApart: 0,
    kvReads: environment === "live" ? 1000 : 0,
    kvWrites: environment === "live" ? ours.kvWrites : 0,
    cpuMs: null,
    objectActiveSeconds: 0,
  };
}

/** Dollars per 1,000 items, by what is billed. */
export function dollarsOf(units: Units): Record<string, number> {
  const m = (n: number, price: number) => (n * price) / 1_000_000;
  const parts = {
    workers:
      m(units.workerInvocations, PRICES.workerRequestPerMillion) + m(units.cpuMs ?? 0, PRICES.workerCpuMsPerMillion),
    queues: m(units.queueOperations, PRICES.queueOperationPerMillion),
    objectRequests: m(units.objectRequests, PRICES.objectRequestPerMillion),
    objectDuration: m(units.objectActiveSeconds * PRICES.objectGb, PRICES.objectGbSecondPerMillion),
    rows:
      m(units.rowsRead, PRICES.rowReadPerMillion) +
      m(units.rowsWritten + units.rowsWrittenApart, PRICES.rowWrittenPerMillion),
    kv: m(units.kvReads, PRICES.kvReadPerMillion) + m(units.kvWrites, PRICES.kvWritePerMillion),
  };
  return { ...parts, total: sum(Object.values(parts)) };
}

const COLUMNS: [keyof Units, string][] = [
  ["workerInvocations", "Worker invocations"],
  ["queueMessages", "queue messages"],
  ["queueOperations", "queue operations"],
  ["objectRequests", "DO requests"],
  ["objectRequestsNoGovernor", "DO requests, governor apart"],
  ["rowsRead", "rows read"],
  ["rowsWritten", "rows written"],
  ["rowsWrittenApart", "rows written: person index, erasure"],
  ["kvReads", "KV reads"],
  ["kvWrites", "KV writes and deletes"],
  ["cpuMs", "CPU ms"],
  ["objectActiveSeconds", "DO active s"],
];

const fmt = (n: number | null) =>
  n === null ? "—" : n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n === 0 ? "0" : n.toFixed(3);
const ratio = (ours: number | null, floor: number | null) =>
  ours === null || floor === null || floor === 0 ? "" : `${(ours / floor).toFixed(2)}×`;

/** The table: per column, ours, the floor and the ratio, for every run. */
export function costTable(runs: readonly CostRun[]): string[] {
  const head = runs.map((r) => `${r.environment} ${r.items.toLocaleString("en")}`);
  return [
    `| per 1,000 items | ${head.map((h) => `${h} | floor | ratio`).join(" | ")} |`,
    `|---|${head.map(() => "---:|---:|---:").join("|")}|`,
    ...COLUMNS.map(
      ([key, label]) =>
        `| ${label} | ${runs.map((r) => `${fmt(r.units[key])} | ${fmt(key === "cpuMs" || key === "objectActiveSeconds" ? null : r.floor[key])} | ${ratio(r.units[key], key === "cpuMs" || key === "objectActiveSeconds" ? null : r.floor[key])}`).join(" | ")} |`,
    ),
    `| **USD** | ${runs.map((r) => `${r.dollars.total!.toFixed(4)} | ${r.floorDollars.total!.toFixed(4)} | ${ratio(r.dollars.total!, r.floorDollars.total!)}`).join(" | ")} |`,
    `| credits users pay | ${runs.map((r) => `${fmt((r.creditsCharged * 1000) / r.items)} | | `).join(" | ")} |`,
    `| USD per 1,000 credits charged | ${runs.map((r) => `${r.creditsCharged > 0 ? ((r.dollars.total! * r.items) / r.creditsCharged).toFixed(5) : "—"} | | `).join(" | ")} |`,
  ];
}

/**
 * The targets, judged on the `test` batches (a live batch's governor leases are reported, not judged):
 * issue 40's, and those restated from the measurements (bench/NOTES.md, issue 40).
 */
export function costTargets(runs: readonly CostRun[]): string[] {
  const judged = (value: number, target: number) =>
    `${value.toFixed(2)}× (≤ ${target}: ${value <= target ? "met" : "**missed**"})`;
  return runs
    .filter((r) => r.environment === "test")
    .map((r) => {
      const rows = r.units.rowsWritten / r.floor.rowsWritten;
      const requests = r.units.objectRequests / r.floor.objectRequests;
      return `- test ${r.items.toLocaleString("en")}: rows written ${judged(rows, 2)}, restated ${judged(rows, 4)}; DO requests ${judged(requests, 1.5)}, restated ${judged(requests, 2.3)}.`;
    });
}

export function costSections(): string[] {
  if (!existsSync(COST_RESULTS)) return [];
  const result = JSON.parse(readFileSync(COST_RESULTS, "utf8")) as {
    date: string;
    machine: string;
    notes: string[];
    runs: CostRun[];
  };
  return [
    "## What a batch costs the platform (`npm run bench:cost`)",
    "",
    `${result.date}, ${result.machine}. ${result.notes.join(" ")}`,
    "",
    ...costTable(result.runs),
    "",
    "Dollars per 1,000 items by part (ours):",
    "",
    "| run | Workers | Queues | DO requests | DO duration | SQLite rows | KV | total |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...result.runs.map(
      (r) =>
        `| ${r.environment} ${r.items.toLocaleString("en")} | ${["workers", "queues", "objectRequests", "objectDuration", "rows", "kv", "total"].map((k) => r.dollars[k]!.toFixed(5)).join(" | ")} |`,
    ),
    "",
    "Targets (issue 40):",
    "",
    ...costTargets(result.runs),
    "",
  ];
}
