// The console page at /app: a spreadsheet in, enriched out, through the public API
// with a key the user pastes (kept in this tab's sessionStorage only).
import { clearAccount, showAccount } from "./account-view";
import { type Api, createApi, environmentOf } from "./api";
import { onCrmTab, useCrmApi, wireCrm } from "./crm-tab";
import { byId } from "./dom";
import { explain } from "./explain";
import {
  countNotSent,
  ENCODINGS,
  type Encoding,
  guessMapping,
  type Mapping,
  readTable,
  type Table,
} from "./file-adapter";
import { review, showCounts, showMapping, showPreview } from "./file-view";
import { loadJob, type SavedJob, saveJob } from "./job-store";
import { showPastRuns } from "./past-runs-view";
import { estimateJob, planBatches, sha256Hex } from "./run-job";
import { download, forgetRun, offerDownloads, run } from "./run-view";
import { wireTabs } from "./tabs";
import { onHooksTab, useHooksApi, wireHooks } from "./webhooks-tab";
import { count, estimateLine } from "./words";

const KEY_STORAGE = "contact-info-console:api-key";

let api: Api | undefined;
let file: { chosen: File; name: string; hash: string; table: Table; mapping: Mapping } | undefined;
// The estimate on screen when Start is pressed, kept with the run to set beside what it charged.
let lastEstimate: number | undefined;

const say = (id: string, text: string) => {
  byId(id).textContent = text;
};

const listRuns = () => api && showPastRuns(api.environment, api, () => file);

async function refreshAccount(): Promise<void> {
  listRuns();
  if (!api) return clearAccount();
  try {
    await showAccount(api);
  } catch (error) {
    say("key-status", explain(error));
  }
}

function useKey(key: string): void {
  sessionStorage.setItem(KEY_STORAGE, key);
  api = createApi(key, (seconds) =>
    say("run-status", `The server asked us to slow down: waiting ${count(seconds, "second")}.`),
  );
  say("key-status", `Using a ${environmentOf(key)} key.`);
  useCrmApi(api);
  useHooksApi(api);
  updateStart();
  void refreshAccount();
  void showEstimate();
  const job = loadJob();
  if (job && job.environment === api.environment) void resume(job);
}

async function resume(job: SavedJob, withItems = false): Promise<void> {
  if (!api) return say("key-status", "Paste your API key first.");
  try {
    await run(api, job, withItems && file ? review(file.table, file.mapping).items : undefined);
    offerDownloads(file?.hash);
    void refreshAccount();
  } catch (error) {
    if ((error as { name?: string }).name !== "AbortError") say("run-status", explain(error));
  }
}

// The estimate shown is the one of the latest review: an older answer arriving late is dropped.
let estimating = 0;

/** What Start would cost at most, asked of the API (it creates nothing) whenever the rows to send change. */
async function showEstimate(): Promise<void> {
  const asked = ++estimating;
  lastEstimate = undefined;
  if (!api || !file) return say("estimate", "");
  const { items } = review(file.table, file.mapping);
  if (items.length === 0) return say("estimate", "");
  say("estimate", "Estimating the cost…");
  try {
    const estimate = await estimateJob(api.client, items);
    if (asked !== estimating) return;
    lastEstimate = estimate.maxCredits;
    say("estimate", estimateLine(estimate, "row"));
  } catch (error) {
    if (asked === estimating) say("estimate", explain(error));
  }
}

/** Why Start cannot run now, said beside it; undefined when it can. */
function startBlocker(): string | undefined {
  if (!file) return "Choose a file first.";
  if (!api) return "Paste your API key at the top of the page first.";
  if (review(file.table, file.mapping).items.length === 0)
    return "No row identifies a person: choose the columns above (an email, a LinkedIn URL, or a name with a company).";
  if (file.table.badRows.length > 0 && !byId<HTMLInputElement>("skip-bad").checked)
    return "Some lines cannot be read: tick the box above to leave them out, or fix the file.";
  return undefined;
}

function updateStart(): void {
  const why = startBlocker();
  byId<HTMLButtonElement>("start").disabled = why !== undefined;
  say("start-why", why ?? "");
}

function updateReview(): void {
  if (!file) return;
  showCounts(file.table, review(file.table, file.mapping));
  void showEstimate();
  byId("bad-rows-choice").hidden = file.table.badRows.length === 0;
  updateStart();
}

async function chooseFile(chosen: File, encoding?: Encoding): Promise<void> {
  say("file-status", `Reading ${chosen.name}…`);
  byId("review").hidden = true;
  // The last file's estimate is not this one's: gone until this file's own is in.
  say("estimate", "");
  if (encoding === undefined) {
    byId<HTMLSelectElement>("encoding").value = "";
    byId("encoding-choice").hidden = true;
  }
  try {
    const [table, hash] = await Promise.all([readTable(chosen, encoding), chosen.arrayBuffer().then(sha256Hex)]);
    // The same file as the saved run's: its mapping, so Start answers the same batches.
    const saved = loadJob();
    const mapping = saved?.fileHash === hash ? saved.mapping : guessMapping(table.header);
    file = { chosen, name: chosen.name, hash, table, mapping };
    // Only text has an encoding to choose; a workbook's is its own.
    byId("encoding-choice").hidden = table.kind !== "csv";
    const size = `${chosen.name}: ${count(table.rows.length, "row")}, ${count(table.header.length, "column")}.`;
    say("file-status", [size, ...table.notices].join(" "));
    byId<HTMLInputElement>("skip-bad").checked = false;
    showPreview(table);
    showMapping(table, file.mapping, (mapping) => {
      if (file) file.mapping = mapping;
      updateReview();
    });
    updateReview();
    byId("review").hidden = false;
    offerDownloads(file.hash);
  } catch (error) {
    file = undefined;
    say("file-status", explain(error));
    updateStart();
  }
}

async function start(): Promise<void> {
  if (!api) return say("file-status", "Paste your API key above first.");
  if (!file) return;
  const { items, rows } = review(file.table, file.mapping);
  if (items.length === 0) return say("file-status", "No row identifies a person: check the columns chosen above.");
  // What is sent decides the keys: the same items (same file, mapping, encoding) answer the same batches.
  const runHash = await sha256Hex(JSON.stringify(items));
  const saved = loadJob();
  const job: SavedJob =
    saved?.runHash === runHash
      ? saved
      : {
          runHash,
          environment: api.environment,
          fileName: file.name,
          fileHash: file.hash,
          rows: items.length,
          notSent: file.table.rows.length - items.length,
          notSentWhy: countNotSent(rows),
          mapping: file.mapping,
          batches: planBatches(items.length, runHash),
          startedAt: Date.now(),
          estimatedCredits: lastEstimate,
        };
  saveJob(job);
  await resume(job, true);
}

function wire(): void {
  wireHooks();
  useHooksApi(undefined);
  wireTabs((tab) => {
    if (tab === "crm") onCrmTab();
    if (tab === "hooks") onHooksTab();
  });
  wireCrm(() => void refreshAccount());
  const keyInput = byId<HTMLInputElement>("api-key");
  byId<HTMLFormElement>("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (keyInput.value.trim() !== "") useKey(keyInput.value.trim());
    keyInput.value = "";
  });
  byId("forget-key").addEventListener("click", () => {
    sessionStorage.removeItem(KEY_STORAGE);
    api = undefined;
    say("key-status", "Key forgotten.");
    clearAccount();
    useCrmApi(undefined);
    useHooksApi(undefined);
  });
  const input = byId<HTMLInputElement>("file");
  input.addEventListener("change", () => {
    const chosen = input.files?.[0];
    if (chosen) void chooseFile(chosen);
  });
  const drop = byId("drop");
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    const chosen = event.dataTransfer?.files[0];
    if (chosen) void chooseFile(chosen);
  });
  const encoding = byId<HTMLSelectElement>("encoding");
  encoding.append(...ENCODINGS.map((name) => new Option(name.toUpperCase().replace("WINDOWS", "Windows"), name)));
  encoding.addEventListener("change", () => {
    const forced = ENCODINGS.find((name) => name === encoding.value);
    if (file) void chooseFile(file.chosen, forced);
  });
  byId("skip-bad").addEventListener("change", updateReview);
  byId("start").addEventListener("click", () => void start());
  byId("refresh").addEventListener("click", () => void refreshAccount());
  for (const kind of ["csv", "xlsx", "failed"] as const) {
    byId(`download-${kind}`).addEventListener("click", () => file && void download(kind, file.table));
  }
  byId("clear-run").addEventListener("click", forgetRun);
  const key = sessionStorage.getItem(KEY_STORAGE);
  if (key) useKey(key);
}

wire();
