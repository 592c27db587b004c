// A run on screen: submitted (or resumed from localStorage), watched, then its
// answers read back and offered as files.
import type { PersonInput } from "../src/contact-info/person";
import type { Api } from "./api";
import { byId, formatSeconds, saveFile } from "./dom";
import { type Answer, csvBlob, enrichedLines, FileProblem, failedLines, prepare, rowResults, type Table, xlsxBlob } from "./file-adapter";
import { clearJob, type SavedJob } from "./job-store";
import { collectAnswers, type Progress, sha256Hex, submitJob, watchJob } from "./run-job";

let finished: { job: SavedJob; answers: Answer[]; found: number; failed: number } | undefined;
let stop: AbortController | undefined;

const status = (text: string) => {
  byId("run-status").textContent = text;
};

function showProgress({ total, done, found, failed, secondsLeft }: Progress, notSent: number): void {
  const bar = byId<HTMLProgressElement>("run-progress");
  bar.max = Math.max(1, total);
  bar.value = done;
  const left = secondsLeft === undefined ? "" : `, about ${formatSeconds(secondsLeft)} left`;
  const invalid = notSent > 0 ? ` ${notSent} invalid row(s) not sent.` : "";
  status(`${done} of ${total} rows done: ${found} found, ${failed} failed${left}.${invalid}`);
}

/** Submits what is not yet submitted (needs the items), then watches the run to its end. */
export async function run(api: Api, job: SavedJob, items?: readonly PersonInput[]): Promise<void> {
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
  await watchJob(api.client, job, (progress) => showProgress(progress, job.notSent), stop.signal);
  status("Reading the results…");
  const answers = await collectAnswers(api.client, job);
  const found = answers.filter((answer) => answer?.item.outcome === "found").length;
  const failed = answers.filter((answer) => answer?.item.status === "failed").length;
  finished = { job, answers, found, failed };
  showProgress({ total: job.rows, done: job.rows, found, failed }, job.notSent);
  byId("downloads").hidden = false;
}

/** Offers the downloads when the file in hand is the run's own. */
export function offerDownloads(fileHash: string | undefined): void {
  const ready = finished !== undefined && fileHash === finished.job.fileHash;
  byId("need-file").hidden = ready || finished === undefined;
  for (const id of ["download-csv", "download-xlsx", "download-failed"]) byId<HTMLButtonElement>(id).disabled = !ready;
}

const baseName = (name: string) => name.replace(/\.(csv|xlsx|jsonl|ndjson)$/i, "");

/** Writes the file asked for from the table in hand and the run's answers, under the run's own mapping. */
export async function download(kind: "csv" | "xlsx" | "failed", table: Table): Promise<void> {
  if (!finished) return;
  const prepared = prepare(table, finished.job.mapping);
  // Read in another encoding since the run, the rows would not be the ones sent.
  if ((await sha256Hex(JSON.stringify(prepared.items))) !== finished.job.runHash)
    return status("This file reads differently from the one sent (another encoding?): choose the encoding it was sent with.");
  const results = rowResults(prepared, finished.answers);
  const name = baseName(finished.job.fileName);
  try {
    if (kind === "csv") saveFile(csvBlob(enrichedLines(table, results)), `${name}.enriched.csv`);
    else if (kind === "xlsx") saveFile(await xlsxBlob(enrichedLines(table, results)), `${name}.enriched.xlsx`);
    else saveFile(csvBlob(failedLines(table, results)), `${name}.failed.csv`);
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
