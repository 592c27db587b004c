// The CRM tab (issue 37): connect a CRM, enrich one of its lists, preview what would be
// written back under the rules chosen, apply it, and download the report. Told of the key
// in use by the page; picks up the work saved in this browser (ids only) for its environment.
import type { Api } from "./api";
import { type CrmApi, crmApi } from "./crm-api";
import { clearConnections, showConnections, showEnvironment, wireConnect } from "./crm-connect-view";
import { clearList, followList, refreshLists, wireList } from "./crm-list-view";
import { peopleOf } from "./crm-people";
import { type CrmJob, loadCrmJob } from "./crm-store";
import { clearSync, followSync, type SyncDoors, wireSync } from "./crm-sync-view";
import { FIRST_PROVIDER, PROVIDERS, type Provider } from "./crms";
import { byId } from "./dom";
import { explainCrm } from "./explain";

let doors: { api: Api; crm: CrmApi; people: SyncDoors["people"] } | undefined;
let loaded = false;

async function refreshConnections(): Promise<void> {
  if (!doors) return;
  const { crm } = doors;
  try {
    showConnections(await crm.integrations(), crm, refreshConnections);
    refreshLists(crm);
  } catch (error) {
    byId("crm-connect-status").textContent = explainCrm(error);
  }
}

/** The batch "Write back" syncs: the list enriched here, else the batch ID pasted. */
function currentJob(): CrmJob | undefined {
  if (!doors) return undefined;
  const batchId = byId<HTMLInputElement>("crm-batch").value.trim();
  if (batchId === "") return undefined;
  const saved = loadCrmJob(doors.api.environment);
  if (saved?.batchId === batchId) return saved;
  const provider =
    PROVIDERS.find((name) => name === byId<HTMLSelectElement>("crm-sync-provider").value) ?? FIRST_PROVIDER;
  return { environment: doors.api.environment, provider, listId: "", idempotencyKey: "", batchId };
}

/** The batch of a list enriched here: "Write back" takes it, into the CRM it came from. */
const enriched = (batchId: string, provider: Provider) => {
  byId<HTMLInputElement>("crm-batch").value = batchId;
  byId<HTMLSelectElement>("crm-sync-provider").value = provider;
};

/** The tab shown: its connections read (once per key), its saved work followed again. */
async function open(): Promise<void> {
  if (!doors || loaded) return;
  loaded = true;
  await refreshConnections();
  const job = loadCrmJob(doors.api.environment);
  if (!job) return;
  byId<HTMLInputElement>("crm-list-id").value = job.listId;
  if (job.batchId) enriched(job.batchId, job.provider);
  if (job.syncId && job.batchId) await followSync(doors, job, job.syncId);
  else if (job.listId) await followList(doors.api, doors.crm, job, (batchId) => enriched(batchId, job.provider));
}

/** The key in use (undefined: forgotten): what another key's tab showed is cleared, never shown to this one. */
export function useCrmApi(api: Api | undefined): void {
  doors = api ? { api, crm: crmApi(api), people: (batchId) => peopleOf(api.client, batchId) } : undefined;
  loaded = false;
  showEnvironment(api);
  clearConnections();
  clearList();
  clearSync();
  byId<HTMLInputElement>("crm-batch").value = "";
  if (!byId("panel-crm").hidden) void open();
}

export function onCrmTab(): void {
  void open();
}

/** `onEnriched`: told when a list's run ends (the account's usage has moved). */
export function wireCrm(onEnriched: () => void): void {
  wireConnect(() => doors?.crm, refreshConnections);
  wireList(
    () => doors,
    (batchId, provider) => {
      enriched(batchId, provider);
      onEnriched();
    },
  );
  wireSync(() => (doors ? { ...doors, job: currentJob } : undefined));
}
