// A run on screen: submitted (or resumed from localStorage), watched, then its
// answers read back, summed up (what was found, what it cost) and offered as files.
import type { RunProgress } from "../client/src/index";
import type { PersonInput } from "../src/contact-info/person";
import { alreadyEnriched, notSentWhy, tallyLine } from "../src/file-core/index";
import type { Api } from "./api";
import { byId, h, saveFile } from "./dom";
import {
  type Answer,
  csvBlob,
  enrichedLines,
  FileProblem,
  failedLines,
  prepare,
  rowResults,
  type Table,
  xlsxBlob,
} from "./file-adapter";
import { clearJob, type RunResult, type SavedJob, saveJob } from "./job-store";
import { collectAnswers, sha256Hex, submitJob, watchJob } from "./run-job";
import { count, duration, num } from "./words";

let finished: { job: SavedJob; answers: Answer[] } | undefined;
let stop: AbortController | undefined;

const status = (text: string) => {
  byId("run-status").textContent = text;
};

/** "800 found, 400 not found, 34 failed" (suppressed, and rows not sent with why, only when there are some). */
export const outcomes = (
  result: Pick<RunResult, "found" | "notFound" | "failed" | "suppressed">,
  notSent = {},
): string => tallyLine({ ...result, notSent }, num);

/** A run's progress on its bar and status line (the CRM tab's too). */
export function showProgress(progress: RunProgress, bar = "run-progress", line = "run-status"): void {
  const element = byId<HTMLProgressElement>(bar);
  element.max = Math.max(1, progress.total);
  element.value = progress.done;
  const left =
    progress.secondsLeft !== undefined
      ? ` About ${duration(progress.secondsLeft)} left.`
      : progress.measured
        ? " Finishing the last rows (some are being tried again)."
        : " Measuring the pace…";
  byId(line).textContent =
    `${num(progress.done)} of ${count(progress.total, "row")} done: ${outcomes(progress)}.${left}`;
}

/** The end: each count, the credits charged beside the estimate, and the downloads there is something for. */
function showSummary(job: SavedJob, result: RunResult): void {
  const entry = (term: string, value: string, id: string) => h("div", {}, h("dt", {}, term), h("dd", { id }, value));
  const estimate = job.estimatedCredits === undefined ? "" : ` (estimate: at most ${num(job.estimatedCredits)})`;
  const notSent = { ...result, notSent: job.notSentWhy ?? {} };
  const why = notSentWhy(notSent, num);
  const newCredits = result.newCredits ?? result.creditsCharged;
  byId("run-summary").replaceChildren(
    entry("Found", num(result.found), "done-found"),
    entry("Not found", num(result.notFound), "done-not-found"),
    entry("Failed", num(result.failed), "done-failed"),
    entry("Suppressed", num(result.suppressed), "done-suppressed"),
    ...(job.notSent > 0 ? [entry("Not sent", `${num(job.notSent)}${why ? ` (${why})` : ""}`, "done-not-sent")] : []),
    result.repeatOf === undefined
      ? entry("Credits charged", `${num(result.creditsCharged)}${estimate}`, "done-credits")
      : entry("New credits", "0", "done-credits"),
  );
  byId("run-summary").hidden = false;
  const blank = job.notSentWhy?.blank ?? 0;
  const failedRows = result.failed + result.suppressed + job.notSent - blank;
  byId("download-failed").hidden = failedRows === 0;
  byId("download-failed").textContent = `Download failed rows (${num(failedRows)})`;
  const done = `Done: ${count(job.rows + job.notSent, "row")}: ${outcomes(result, job.notSentWhy)}.`;
  status(
    result.repeatOf === undefined
      ? `${done} ${num(newCredits)} credits charged.`
      : `${alreadyEnriched(result.repeatOf, result.creditsCharged)} ${done} Download the results below.`,
  );
}

/** Submits what is not yet submitted (needs the items), then watches the run to its end. */
export async function run(api: Api, job: SavedJob, items?: readonly PersonInput[]): Promise<void> {
  stop?.abort();
  stop = new AbortController();
  finished = undefined;
  byId("run").hidden = false;
  byId("downloads").hidden = true;
  byId("run-summary").hidden = true;
  if (job.batches.some((batch) => batch.batchId === undefined)) {
    if (!items) return status(`Choose ${job.fileName} again and press Start to finish sending it.`);
    status(`Sending ${count(job.rows, "row")}…`);
    await submitJob(api.client, job, items);
  }
  status("Waiting for the first results…");
  let last: RunProgress | undefined;
  const { creditsCharged, newCredits, repeatOf } = await watchJob(
    api.client,
    job,
    (progress) => {
      last = progress;
      showProgress(progress);
    },
    stop.signal,
  );
  status("Reading the results…");
  const answers = await collectAnswers(api.client, job);
  const failedWith = (suppressed: boolean) =>
    answers.filter((a) => a?.item.status === "failed" && (a.item.error?.code === "suppressed") === suppressed).length;
  const result: RunResult = {
    found: answers.filter((answer) => answer?.item.outcome === "found").length,
    notFound: answers.filter((answer) => answer?.item.status === "completed" && answer.item.outcome !== "found").length,
    failed: failedWith(false),
    suppressed: failedWith(true),
    creditsCharged,
    newCredits,
    ...(repeatOf === undefined ? {} : { repeatOf }),
  };
  finished = { job, answers };
  if (last) showProgress({ ...last, ...result, done: job.rows });
  job.result = result;
  saveJob(job);
  showSummary(job, result);
  byId("downloads").hidden = false;
}

/** Offers the downloads when the file in hand is the run's own. */
export function offerDownloads(fileHash: string | undefined): void {
  const ready = finished !== undefined && fileHash === finished.job.fileHash;
  byId("need-file").hidden = ready || finished === undefined;
  for (const id of ["download-csv", "download-xlsx", "download-failed"]) byId<HTMLButtonElement>(id).disabled = !ready;
}

const baseName = (name: string) => name.replace(/\.(csv|xlsx|jsonl|ndjson|tsv|txt)$/i, "");

export type DownloadKind = "csv" | "xlsx" | "failed";

/**
 * Writes the file asked for from the table in hand and a run's answers (read again from its
 * batches for a past run), under the run's own mapping.
 */
export async function download(
  kind: DownloadKind,
  table: Table,
  job?: SavedJob,
  api?: Api,
): Promise<string | undefined> {
  const run =
    job && api && finished?.job.runHash !== job.runHash
      ? { job, answers: await collectAnswers(api.client, job) }
      : finished;
  if (!run) return;
  const prepared = prepare(table, run.job.mapping);
  // Read in another encoding since the run, the rows would not be the ones sent.
  if ((await sha256Hex(JSON.stringify(prepared.items))) !== run.job.runHash)
    return "This file reads differently from the one sent (another encoding?): choose the encoding it was sent with.";
  const results = rowResults(prepared, run.answers);
  const name = baseName(run.job.fileName);
  try {
    if (kind === "csv") saveFile(csvBlob(enrichedLines(table, results)), `${name}.enriched.csv`);
    else if (kind === "xlsx") {
      status(`Writing the workbook (${count(table.rows.length, "row")})…`);
      saveFile(await xlsxBlob(enrichedLines(table, results)), `${name}.enriched.xlsx`);
      status(`Workbook written: ${name}.enriched.xlsx.`);
    } else saveFile(csvBlob(failedLines(table, results)), `${name}.failed.csv`);
  } catch (error) {
    const said =
      error instanceof FileProblem
        ? error.message
        : `Could not write the file (${String(error)}); download the CSV instead.`;
    status(said);
    return said;
  }
  return undefined;
}

export function forgetRun(): void {
  stop?.abort();
  finished = undefined;
  clearJob();
  byId("run").hidden = true;
}
