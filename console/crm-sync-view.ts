// "Write back": a batch's found emails and phones into the CRM's records under the rule
// chosen per field. Always previewed first (a dry run: before, after, action, why and the
// rule, record by record, page by page); Apply writes exactly what was previewed, then the
// per-record results show in the same table, and either can be downloaded as a report.
import { type CrmApi, RULES, type Rule, type SyncField, type SyncPage } from "./crm-api";
import { DIFF_HEADER, type DiffLine, diffCells, diffLines, type Person, reportLines, undoPreview } from "./crm-diff";
import { type CrmJob, saveCrmJob } from "./crm-store";
import { crmLabel, PROVIDERS } from "./crms";
import { byId, fillTable, h, saveFile } from "./dom";
import { explainCrm } from "./explain";
import { csvBlob } from "./file-adapter";
import { count, num, RULE_WORDS } from "./words";

const FIELDS: readonly SyncField[] = ["email", "phone"];
const POLL_MS = 1000;

interface Shown {
  sync: SyncPage;
  lines: DiffLine[];
}

/** The API's CRM calls, and who the batch's people are (crm-people.ts). */
export interface SyncDoors {
  crm: CrmApi;
  people(batchId: string): Promise<ReadonlyMap<number, Person>>;
}

/** Applied: a dry run written (same sync, with appliedAt), or a sync that wrote as it went. */
const applied = (sync: SyncPage): boolean => !sync.dryRun || sync.appliedAt !== null;

let shown: Shown | undefined;
let stop: AbortController | undefined;

const say = (text: string) => {
  byId("crm-sync-status").textContent = text;
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

function countsLine(sync: SyncPage): string {
  const { counts, status } = sync;
  const done = applied(sync);
  const updated = done ? `${num(counts.updated)} updated` : `${num(counts.updated)} to update`;
  const rest = `${num(counts.unchanged)} unchanged, ${num(counts.skipped)} skipped, ${num(counts.failed)} failed`;
  const what = sync.undoOf ? "Undo" : done ? "Applied" : "Preview";
  const retry =
    done && status === "completed" && counts.failed > 0
      ? " What the CRM refused is said under Why: fix it there, then preview again."
      : "";
  return `${status === "running" ? `${what}, so far` : what}: ${updated}, ${rest}.${retry}`;
}

/** Why a sync failed, and what to do. */
function failure(sync: SyncPage): string {
  if (sync.status !== "failed") return "";
  const crm = crmLabel(sync.provider);
  if (sync.error?.code === "crm_unauthorized")
    return ` ${crm} refused the token (expired or revoked): connect it again above, then preview again. What was written before is listed below.`;
  if (sync.error?.code === "crm_not_connected") return ` ${crm} is not connected any more: connect it again above.`;
  return ` The sync failed${sync.error ? ` (${sync.error.code}): ${sync.error.message}` : "."}`;
}

/** The sync's first page once it has ended, its counts told while it runs. */
async function waitForSync(crm: CrmApi, id: string, signal: AbortSignal): Promise<SyncPage> {
  for (;;) {
    const page = await crm.sync(id);
    if (page.status !== "running") return page;
    say(`${countsLine(page)} Reading the CRM…`);
    await sleep(POLL_MS, signal);
  }
}

function show(next: Shown): void {
  shown = next;
  const { sync, lines } = next;
  const done = applied(sync);
  const entry = (term: string, value: number, id: string) =>
    h("div", {}, h("dt", {}, term), h("dd", { id }, num(value)));
  byId("crm-counts").replaceChildren(
    entry(done ? "Updated" : "To update", sync.counts.updated, "crm-count-updated"),
    entry("Unchanged", sync.counts.unchanged, "crm-count-unchanged"),
    entry("Skipped", sync.counts.skipped, "crm-count-skipped"),
    entry("Failed", sync.counts.failed, "crm-count-failed"),
  );
  // Only changes: the records with a line written, to be written, or failed (skipped ones hidden).
  const onlyChanges = byId<HTMLInputElement>("crm-only-changes").checked;
  const changing = new Set(lines.filter((line) => !line.action.startsWith("Skip")).map((line) => line.index));
  const visible = onlyChanges ? lines.filter((line) => changing.has(line.index)) : lines;
  const records = new Set(lines.map((line) => line.index)).size;
  const listed = onlyChanges
    ? `${count(changing.size, "record")} with something to write, of ${num(records)}`
    : count(records, "record");
  fillTable(
    byId<HTMLTableElement>("crm-diff"),
    DIFF_HEADER,
    visible.map(diffCells),
    `${done ? "What was done" : "What would be written"}, record by record: ${listed} shown.`,
  );
  byId("crm-sync-result").hidden = false;
  byId("crm-more").hidden = !sync.nextCursor;
  const apply = byId<HTMLButtonElement>("crm-apply");
  const nothing = sync.status === "completed" && sync.counts.updated === 0;
  apply.hidden = done;
  apply.disabled = sync.status !== "completed" || nothing;
  byId("crm-apply-why").textContent = !done && nothing ? "Nothing to write: no record would change." : "";
  const undo = byId<HTMLButtonElement>("crm-undo");
  undo.hidden = !done || sync.status === "running" || sync.undoOf !== null || sync.undoneBy !== null;
  undo.textContent = "Undo this write-back";
  byId("crm-undo-preview").replaceChildren();
  say(`${countsLine(sync)}${failure(sync)}`);
}

/** Follows sync `id` to its end and shows its first page; the job remembers it. */
export async function followSync({ crm, people }: SyncDoors, job: CrmJob, id: string): Promise<void> {
  stop?.abort();
  stop = new AbortController();
  job.syncId = id;
  saveCrmJob(job);
  try {
    const sync = await waitForSync(crm, id, stop.signal);
    show({ sync, lines: diffLines(sync.records, applied(sync), await people(sync.batchId)) });
  } catch (error) {
    if ((error as { name?: string }).name !== "AbortError") say(explainCrm(error, job.provider));
  }
}

/** Forgets the sync on screen (another key's, or none). */
export function clearSync(): void {
  stop?.abort();
  shown = undefined;
  byId("crm-sync-result").hidden = true;
  byId("crm-diff").replaceChildren();
  say("");
}

function chosenRules(): Partial<Record<SyncField, Rule>> {
  const rules: Partial<Record<SyncField, Rule>> = {};
  for (const field of FIELDS) {
    const rule = RULES.find((name) => name === byId<HTMLSelectElement>(`crm-rule-${field}`).value);
    if (rule) rules[field] = rule;
  }
  return rules;
}

async function more({ crm, people }: SyncDoors): Promise<void> {
  if (!shown?.sync.nextCursor) return;
  const { sync, lines } = shown;
  const page = await crm.sync(sync.id, sync.nextCursor ?? undefined);
  show({ sync: page, lines: [...lines, ...diffLines(page.records, applied(page), await people(page.batchId))] });
}

async function report({ crm, people }: SyncDoors): Promise<void> {
  if (!shown) return;
  const { sync } = shown;
  const lines: DiffLine[] = [];
  let cursor: string | undefined;
  do {
    const page = await crm.sync(sync.id, cursor);
    lines.push(...diffLines(page.records, applied(page), await people(page.batchId)));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  saveFile(csvBlob(reportLines(lines)), `crm-sync-${sync.id}.${applied(sync) ? "applied" : "preview"}.csv`);
}

export function wireSync(doors: () => (SyncDoors & { job: () => CrmJob | undefined }) | undefined): void {
  for (const field of FIELDS) {
    const select = byId<HTMLSelectElement>(`crm-rule-${field}`);
    select.replaceChildren(
      ...RULES.map((rule) => new Option(RULE_WORDS[rule].label, rule)),
      new Option("Do not write", ""),
    );
  }
  byId("crm-rules-help").replaceChildren(
    ...RULES.flatMap((rule) => [h("dt", {}, RULE_WORDS[rule].label), h("dd", {}, RULE_WORDS[rule].help)]),
  );
  const guard = (work: (open: SyncDoors, job: CrmJob) => Promise<void>) => async () => {
    const open = doors();
    const job = open?.job();
    if (!open || !job) return say("Enrich a CRM list above first (or paste its batch ID).");
    try {
      await work(open, job);
    } catch (error) {
      say(explainCrm(error, job.provider));
    }
  };
  // One preview at a time: a second press while one runs would only start another dry run.
  const preview = byId<HTMLButtonElement>("crm-preview");
  byId<HTMLFormElement>("crm-sync-form").addEventListener("submit", (event) => {
    event.preventDefault();
    preview.disabled = true;
    void guard(async (open, job) => {
      const rules = chosenRules();
      if (Object.keys(rules).length === 0) return say("Choose a rule for the email or the phone (or both).");
      const provider = PROVIDERS.find((name) => name === byId<HTMLSelectElement>("crm-sync-provider").value);
      const batchId = byId<HTMLInputElement>("crm-batch").value.trim();
      if (!provider) return say("Connect a CRM above first.");
      const match = byId<HTMLSelectElement>("crm-match").value === "email" ? "email" : "externalId";
      say("Preparing the preview: nothing is written yet…");
      const id = await open.crm.startSync({ batchId, provider, match, fields: rules, dryRun: true });
      await followSync(open, { ...job, batchId, provider }, id);
    })().finally(() => {
      preview.disabled = false;
    });
  });
  byId("crm-apply").addEventListener(
    "click",
    guard(async (open, job) => {
      if (!shown || applied(shown.sync)) return;
      byId<HTMLButtonElement>("crm-apply").disabled = true;
      say("Writing the previewed changes into the CRM…");
      await open.crm.apply(shown.sync.id);
      await followSync(open, job, shown.sync.id);
    }),
  );
  // Undo in two presses: the first lists what it will restore, the second restores it.
  byId("crm-undo").addEventListener(
    "click",
    guard(async (open, job) => {
      if (!shown || !applied(shown.sync)) return;
      const preview = byId("crm-undo-preview");
      if (preview.childElementCount === 0) {
        const restores = undoPreview(shown.lines);
        const none = "None among the records shown: the undo still reads every record the write-back wrote.";
        preview.replaceChildren(...(restores.length ? restores : [none]).map((line) => h("li", {}, line)));
        byId("crm-undo").textContent =
          `Restore ${count(restores.length, "value")} (any changed in the CRM since is kept)`;
        return;
      }
      say("Restoring the values from before the write-back…");
      await followSync(open, job, await open.crm.undo(shown.sync.id));
    }),
  );
  byId("crm-only-changes").addEventListener("change", () => shown && show(shown));
  byId("crm-more").addEventListener("click", guard(more));
  byId("crm-report").addEventListener("click", guard(report));
}
