// The runs made from this browser, newest first: file name, date, rows, found and
// credits, each with its result files downloadable again while its batches are
// retained (30 days). Rebuilt from the batches and the mapping kept here, with the
// user's file chosen again: the page keeps no copy of the cells, nor does anything else.
import type { Api } from "./api";
import { byId, fillTable, h } from "./dom";
import type { Table } from "./file-adapter";
import { pastRuns, type SavedJob } from "./job-store";
import { type DownloadKind, download } from "./run-view";
import { num } from "./words";

export interface FileInHand {
  hash: string;
  table: Table;
}

function say(text: string): void {
  byId("runs-status").textContent = text;
}

async function downloadAgain(
  job: SavedJob,
  kind: DownloadKind,
  api: Api | undefined,
  file: FileInHand | undefined,
): Promise<void> {
  if (!api) return say("Paste your API key at the top of the page first.");
  if (file?.hash !== job.fileHash)
    return say(`Choose ${job.fileName} again above (the page keeps no copy of your file), then press Download again.`);
  say(`Reading the results of ${job.fileName}…`);
  try {
    const problem = await download(kind, file.table, job, api);
    say(problem ?? `${job.fileName}: downloaded.`);
  } catch (error) {
    const code = (error as { problem?: { code?: string } }).problem?.code;
    say(
      code === "batch_expired" || code === "not_found"
        ? `The results of ${job.fileName} are no longer kept (batches are deleted 30 days after they finish): run the file again.`
        : `Could not read the results of ${job.fileName}: ${String(error)}`,
    );
  }
}

/** The runs of `environment`; `file()` is the file in hand when a download is asked for. */
export function showPastRuns(environment: string, api: Api | undefined, file: () => FileInHand | undefined): void {
  const runs = pastRuns().filter((job) => job.environment === environment && job.result);
  const button = (job: SavedJob, kind: DownloadKind, text: string) => {
    const element = h("button", { type: "button", class: "small" }, text);
    element.addEventListener("click", () => void downloadAgain(job, kind, api, file()));
    return element;
  };
  fillTable(
    byId<HTMLTableElement>("runs"),
    ["File", "Date", "Rows", "Found", "Credits", "Results"],
    runs.map((job) => [
      job.fileName,
      new Date(job.startedAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" }),
      num(job.rows + job.notSent),
      num(job.result!.found),
      num(job.result!.creditsCharged),
      h("span", { class: "actions" }, button(job, "csv", "CSV"), button(job, "xlsx", "XLSX")),
    ]),
    runs.length === 0 ? "No runs from this browser yet." : undefined,
  );
}
