// The run in progress, kept in localStorage so a reload (or a closed tab) picks it
// up again: its batches' ids and Idempotency-Keys, as `npm run enrich` finds its
// batches again from the file; and the runs before it, so their results can be
// downloaded again while their batches are retained (with the file chosen again:
// the mapping is kept here, the cells nowhere). Never the file's cells: only ids,
// counts and names.
import type { NotSentReason } from "../src/file-core/index";
import type { Mapping } from "./file-adapter";

export interface PlannedBatch {
  idempotencyKey: string;
  /** The first row of the file in this batch, and how many rows it has. */
  start: number;
  count: number;
  batchId?: string;
  /** True when the submit answered a batch made before for the same rows (Idempotent-Replayed). */
  replayed?: boolean;
}

export interface SavedJob {
  /** SHA-256 of the items sent; their Idempotency-Keys are made from it. */
  runHash: string;
  environment: string;
  fileName: string;
  fileHash: string;
  /** Items sent: the file's rows that identify a person. */
  rows: number;
  /** The file's rows not sent, as nothing in them identifies a person (they fail in the output, with why). */
  notSent: number;
  /** The rows not sent, by why (blank rows among them). */
  notSentWhy?: Partial<Record<NotSentReason, number>>;
  mapping: Mapping;
  batches: PlannedBatch[];
  startedAt: number;
  /** The estimate's most credits, as shown when Start was pressed. */
  estimatedCredits?: number;
  /** How it ended, once it has. */
  result?: RunResult;
}

export interface RunResult {
  found: number;
  notFound: number;
  failed: number;
  suppressed: number;
  creditsCharged: number;
  /** Of creditsCharged, what batches made by this run charged (none when every batch was made before). */
  newCredits?: number;
  /** When every batch was made before, for the same rows: the first one's creation time. */
  repeatOf?: string;
}

const isResult = (value: unknown): value is RunResult => {
  const r = value as Record<string, unknown>;
  return (
    typeof r === "object" &&
    r !== null &&
    ["found", "notFound", "failed", "suppressed", "creditsCharged"].every((name) => Number.isInteger(r[name])) &&
    (r.newCredits === undefined || Number.isInteger(r.newCredits)) &&
    (r.repeatOf === undefined || typeof r.repeatOf === "string")
  );
};

const KEY = "contact-info-console:job";
const PAST_KEY = "contact-info-console:past-runs";
// Batches are retained 30 days at most; twenty runs is plenty to find one again.
const PAST_RUNS = 20;

const isBatch = (value: unknown): value is PlannedBatch => {
  const b = value as PlannedBatch;
  return (
    typeof b === "object" &&
    b !== null &&
    typeof b.idempotencyKey === "string" &&
    Number.isInteger(b.start) &&
    Number.isInteger(b.count) &&
    (b.batchId === undefined || typeof b.batchId === "string") &&
    (b.replayed === undefined || typeof b.replayed === "boolean")
  );
};

const isJob = (job: SavedJob | null): job is SavedJob =>
  !!job &&
  typeof job.runHash === "string" &&
  typeof job.environment === "string" &&
  typeof job.fileName === "string" &&
  typeof job.fileHash === "string" &&
  Number.isInteger(job.rows) &&
  Number.isInteger(job.notSent) &&
  (job.notSentWhy === undefined || (typeof job.notSentWhy === "object" && job.notSentWhy !== null)) &&
  typeof job.mapping === "object" &&
  Array.isArray(job.batches) &&
  job.batches.every(isBatch) &&
  typeof job.startedAt === "number" &&
  (job.estimatedCredits === undefined || typeof job.estimatedCredits === "number") &&
  (job.result === undefined || isResult(job.result));

function read(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

/** The saved run, or undefined when there is none or what is stored is not one (an older page's, edited by hand). */
export function loadJob(): SavedJob | undefined {
  const job = read(KEY) as SavedJob | null;
  return isJob(job) ? job : undefined;
}

/** Finished runs, newest first (the current one among them once it has ended). */
export function pastRuns(): SavedJob[] {
  const list = read(PAST_KEY);
  return Array.isArray(list) ? list.filter(isJob) : [];
}

export function saveJob(job: SavedJob): void {
  localStorage.setItem(KEY, JSON.stringify(job));
  if (!job.result) return;
  const others = pastRuns().filter((past) => past.runHash !== job.runHash);
  localStorage.setItem(PAST_KEY, JSON.stringify([job, ...others].slice(0, PAST_RUNS)));
}

export const clearJob = (): void => localStorage.removeItem(KEY);
