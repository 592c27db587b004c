// A run on screen: submitted (or resumed from localStorage), watched, then its
// results read back and offered as files.
import type { BatchItem } from "../client/src/index";
import type { Api } from "./api";
import { byId, formatSeconds, saveFile } from "./dom";
import { FileProblem, RESULT_COLUMNS, resultCells, type Sheet, writeCsv, writeXlsx } from "./file-adapter";
import { clearJob, type SavedJob } from "./job-store";
import { collectResults, type Progress, submitJob, watchJob } from "./run-job";

interface Finished {
  job: SavedJob;
  results: string[][];
  failedRows: number[];
}

const STATUS = RESULT_COLUMNS.indexOf("status");
const ERROR = [RESULT_COLUMNS.indexOf("error_code"), RESULT_COLUMNS.indexOf("error_message")];

let finished: Finished | undefined;
let stop: AbortController | undefined;

const status = (text: string) => {
  byId("run-status").textContent = text;
};

function showProgress({ total, done, found, failed, secondsLeft }: Progress): void {
  const bar = byId<HTMLProgressElement>("run-progress");
  bar.max = Math.max(1, total);
  bar.value = done;
  const left = secondsLeft === undefined ? "" : `, about ${formatSeconds(secondsLeft)} left`;
  status(`${done} of ${total} rows done: ${found} found, ${failed} failed${left}.`);
}

/** Submits what is not yet submitted (needs the items), then watches the run to its end. */
export async function run(api: Api, job: SavedJob, items?: Parameters<typeof submitJob>[2]): Promise<void> {
  stop?.abort();
  stop = new AbortController();
  finished = undefined;
  byId("run").hidden = false;
  byId("downloads").hidden = true;
  if (job.batches.some((batch) => batch.batchId === undefined)) {
    if (!items) return status(`Choose ${job.fileName} again and press Start to finish sending it.`);
    status(`Sending ${job.rows} rows…`);
    await submitJob(api.client, job, items);
  }
  await watchJob(api.client, job, showProgress, stop.signal);
  status("Reading the results…");
  const found = { found: 0, failed: 0 };
  const results = await collectResults(api.client, job, (batchId: string, item: BatchItem) => {
    if (item.status === "failed") found.failed++;
    else if (item.outcome === "found") found.found++;
    return resultCells(batchId, item);
  });
  const failedRows = results.flatMap((cells, row) => (cells?.[STATUS] === "failed" ? [row] : []));
  finished = { job, results, failedRows };
  showProgress({ total: job.rows, done: job.rows, found: found.found, failed: found.failed });
  byId("downloads").hidden = false;
}

/** Offers the downloads when the file in hand is the run's own. */
export function offerDownloads(sheet: Sheet | undefined, fileHash: string | undefined): void {
  const ready = finished !== undefined && sheet !== undefined && fileHash === finished.job.fileHash;
  byId("need-file").hidden = ready || finished === undefined;
  for (const id of ["download-csv", "download-xlsx", "download-failed"]) byId<HTMLButtonElement>(id).disabled = !ready;
  byId<HTMLButtonElement>("download-failed").disabled = !ready || finished?.failedRows.length === 0;
}

const baseName = (name: string) => name.replace(/\.(csv|xlsx|jsonl|ndjson)$/i, "");

export async function download(kind: "csv" | "xlsx" | "failed", sheet: Sheet): Promise<void> {
  if (!finished) return;
  const { job, results, failedRows } = finished;
  const name = baseName(job.fileName);
  try {
    if (kind === "csv") saveFile(writeCsv(sheet, { columns: RESULT_COLUMNS, cells: results }), `${name}.enriched.csv`);
    else if (kind === "xlsx") saveFile(await writeXlsx(sheet, results), `${name}.enriched.xlsx`);
    else {
      // Only why each failed: a result column named like an input (email) would be read back as input on resubmission.
      const why = results.map((cells) => ERROR.map((i) => cells?.[i] ?? ""));
      saveFile(writeCsv(sheet, { columns: ["error_code", "error_message"], cells: why }, failedRows), `${name}.failed.csv`);
    }
  } catch (error) {
    status(error instanceof FileProblem ? error.message : `Could not write the file: ${String(error)}`);
  }
}

export function forgetRun(): void {
  stop?.abort();
  finished = undefined;
  clearJob();
  byId("run").hidden = true;
}
