// The CRM tab's work in progress, kept in localStorage so a reload picks it up again: the
// list sent, its batch, and the sync previewed or applied. Only ids: never a person's
// values (those stay in the CRM and the API, and on screen while shown).
import { PROVIDERS, type Provider } from "./crms";

export interface CrmJob {
  environment: string;
  provider: Provider;
  listId: string;
  /** Made before the list is sent, so sending again after a reload answers the same batch. */
  idempotencyKey: string;
  batchId?: string;
  /** The latest sync of the batch: a preview, or the apply of one. */
  syncId?: string;
}

const KEY = "contact-info-console:crm";

const isJob = (value: unknown): value is CrmJob => {
  if (typeof value !== "object" || value === null) return false;
  const job = value as Record<string, unknown>;
  const optional = (name: string) => job[name] === undefined || typeof job[name] === "string";
  return (
    typeof job.environment === "string" &&
    PROVIDERS.some((provider) => provider === job.provider) &&
    typeof job.listId === "string" &&
    typeof job.idempotencyKey === "string" &&
    optional("batchId") &&
    optional("syncId")
  );
};

/** The saved CRM work of `environment`, or undefined (none, another environment's, or not one). */
export function loadCrmJob(environment: string): CrmJob | undefined {
  try {
    const job: unknown = JSON.parse(localStorage.getItem(KEY) ?? "null");
    return isJob(job) && job.environment === environment ? job : undefined;
  } catch {
    return undefined;
  }
}

export const saveCrmJob = (job: CrmJob): void => localStorage.setItem(KEY, JSON.stringify(job));
