// The run in progress, kept in localStorage so a reload (or a closed tab) picks it
// up again: its batches' ids and Idempotency-Keys, as `npm run enrich` finds its
// batches again from the file. Never the file's cells: only ids, counts and names.
import type { Mapping } from "./file-adapter";

export interface PlannedBatch {
  idempotencyKey: string;
  /** The first row of the file in this batch, and how many rows it has. */
  start: number;
  count: number;
  batchId?: string;
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
  mapping: Mapping;
  batches: PlannedBatch[];
  startedAt: number;
}

const KEY = "contact-info-console:job";

const isBatch = (value: unknown): value is PlannedBatch => {
  const b = value as PlannedBatch;
  return (
    typeof b === "object" &&
    b !== null &&
    typeof b.idempotencyKey === "string" &&
    Number.isInteger(b.start) &&
    Number.isInteger(b.count) &&
    (b.batchId === undefined || typeof b.batchId === "string")
  );
};

/** The saved run, or undefined when there is none or what is stored is not one (an older page's, edited by hand). */
export function loadJob(): SavedJob | undefined {
  try {
    const job = JSON.parse(localStorage.getItem(KEY) ?? "null") as SavedJob | null;
    if (
      job &&
      typeof job.runHash === "string" &&
      typeof job.environment === "string" &&
      typeof job.fileName === "string" &&
      typeof job.fileHash === "string" &&
      Number.isInteger(job.rows) &&
      Number.isInteger(job.notSent) &&
      typeof job.mapping === "object" &&
      Array.isArray(job.batches) &&
      job.batches.every(isBatch) &&
      typeof job.startedAt === "number"
    )
      return job;
  } catch {}
  return undefined;
}

export const saveJob = (job: SavedJob): void => localStorage.setItem(KEY, JSON.stringify(job));
export const clearJob = (): void => localStorage.removeItem(KEY);
