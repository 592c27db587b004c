// "Enrich a CRM list": a HubSpot list, or a Salesforce Contacts list view or report, sent as one
// batch whose items are its members (externalId = the CRM record id), then followed with
// the same progress as a spreadsheet's run. Its batch is what "Write back" syncs.
import type { RunProgress } from "../client/src/index";
import type { Api } from "./api";
import type { CrmApi } from "./crm-api";
import { clearPicker, fillPicker, followTypedId } from "./crm-list-picker";
import { type CrmJob, saveCrmJob } from "./crm-store";
import { crmLabel, PROVIDERS, type Provider, perCrm } from "./crms";
import { byId } from "./dom";
import { explainCrm } from "./explain";
import { watchJob } from "./run-job";
import { outcomes, showProgress } from "./run-view";
import { count, estimateLine } from "./words";

const say = (text: string) => {
  byId("crm-run-status").textContent = text;
};

let stop: AbortController | undefined;

/** Sends the job's list unless its batch is known, then follows the batch to its end; `onDone` gets the batch. */
export async function followList(
  api: Api,
  crm: CrmApi,
  job: CrmJob,
  onDone: (batchId: string, provider: Provider) => void,
): Promise<void> {
  stop?.abort();
  stop = new AbortController();
  const name = crmLabel(job.provider);
  byId("crm-run").hidden = false;
  try {
    if (job.batchId === undefined) {
      say(`Reading list ${job.listId} from ${name}…`);
      const { batchId } = await crm.enrichList({ provider: job.provider, listId: job.listId }, job.idempotencyKey);
      job.batchId = batchId;
      saveCrmJob(job);
    }
    const batchId = job.batchId;
    const first = await api.client.getBatch(batchId, { limit: 1 });
    const rows = first.totalItems;
    say(`${count(rows, "record")} read from ${name}: waiting for the first results…`);
    let last: RunProgress | undefined;
    const { creditsCharged } = await watchJob(
      api.client,
      { rows, batches: [{ batchId, idempotencyKey: job.idempotencyKey, start: 0, count: rows }] },
      (progress) => {
        last = progress;
        showProgress(progress, "crm-progress", "crm-run-status");
      },
      stop.signal,
    );
    const counted = last ? ` ${outcomes(last)}.` : "";
    say(
      `Done: ${count(rows, "record")} of list ${job.listId} enriched.${counted} ${count(creditsCharged, "credit")} charged. Preview what would be written back below.`,
    );
    onDone(batchId, job.provider);
  } catch (error) {
    if ((error as { name?: string }).name !== "AbortError") say(explainCrm(error, job.provider));
  }
}

// The estimate shown is the latest asked: an older answer arriving late is dropped.
let estimating = 0;

/** What enriching the list chosen would cost at most, asked when the list or the CRM changes. */
async function showEstimate(crm: CrmApi, provider: Provider, listId: string): Promise<void> {
  const asked = ++estimating;
  const line = byId("crm-estimate");
  line.textContent = "";
  if (listId === "") return;
  line.textContent = `Reading list ${listId} from ${crmLabel(provider)} to estimate the cost…`;
  try {
    const estimate = await crm.estimateList({ provider, listId });
    if (asked === estimating) line.textContent = estimateLine(estimate, "record");
  } catch (error) {
    if (asked === estimating) line.textContent = explainCrm(error, provider);
  }
}

/** Forgets the list's run on screen (another key's, or none). */
export function clearList(): void {
  stop?.abort();
  byId("crm-run").hidden = true;
  byId<HTMLInputElement>("crm-list-id").value = "";
  byId("crm-estimate").textContent = "";
  clearPicker();
  say("");
}

const chosenProvider = (): Provider | undefined =>
  PROVIDERS.find((name) => name === byId<HTMLSelectElement>("crm-list-provider").value);

/** The picker filled with the lists of the CRM chosen (the connections were read, or the CRM changed). */
export function refreshLists(crm: CrmApi): void {
  const provider = chosenProvider();
  if (provider) void fillPicker(crm, provider);
  else clearPicker();
}

export function wireList(
  api: () => { api: Api; crm: CrmApi } | undefined,
  onDone: (batchId: string, provider: Provider) => void,
): void {
  const listInput = byId<HTMLInputElement>("crm-list-id");
  byId("crm-list-help-crms").textContent = perCrm(({ listIdHelp }) => listIdHelp);
  const estimate = () => {
    const doors = api();
    const provider = chosenProvider();
    if (doors && provider) void showEstimate(doors.crm, provider, listInput.value.trim());
  };
  // On change (Enter or leaving the field), not each key: an estimate reads the whole list from the CRM.
  listInput.addEventListener("change", estimate);
  listInput.addEventListener("input", () => followTypedId(listInput.value.trim()));
  const pick = byId<HTMLSelectElement>("crm-list-pick");
  pick.addEventListener("change", () => {
    if (pick.value === "") return;
    listInput.value = pick.value;
    estimate();
  });
  byId("crm-list-provider").addEventListener("change", () => {
    const doors = api();
    if (doors) refreshLists(doors.crm);
    estimate();
  });
  byId<HTMLFormElement>("crm-list-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const doors = api();
    if (!doors) return say("Paste your API key at the top of the page first.");
    const provider = chosenProvider();
    if (!provider) return say("Connect a CRM above first.");
    const listId = listInput.value.trim();
    const job: CrmJob = {
      environment: doors.api.environment,
      provider,
      listId,
      idempotencyKey: `console-crm-${crypto.randomUUID()}`,
    };
    saveCrmJob(job);
    void followList(doors.api, doors.crm, job, onDone);
  });
}
