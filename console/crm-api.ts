// The CRM part of the public API as the page uses it (issue 37): connections, a CRM list
// sent as a batch, and write-back syncs previewed, applied and read page by page. Through
// the client's createCrmClient (the same as `npm run crm`); what it does not offer yet (a
// disconnect, one page of a sync, a submit or estimate with `source`) through the page's send (api.ts),
// shaped by the same generated types.
import type {
  BatchReceipt,
  CrmClient,
  CrmConnection,
  CrmListPage,
  CrmSync,
  CrmSyncRequest,
  Estimate,
} from "../client/src/index";
import type { operations } from "../client/src/schema";
import type { Provider } from "./crms";

type Json<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

export type Integration = CrmConnection;
export type SyncPage = CrmSync;
export type SyncRecord = SyncPage["records"][number];
type Source = NonNullable<Json<operations["submitContactInfoBatch"]["requestBody"]>["source"]>;

type Fields = NonNullable<CrmSyncRequest["fields"]>;
export type Rule = NonNullable<Fields[keyof Fields]>;
export const RULES = ["fill_empty", "overwrite", "skip_if_edited_by_user"] as const satisfies readonly Rule[];
export type SyncField = keyof Fields;

export interface CrmApi {
  integrations(): Promise<Integration[]>;
  connect(provider: Provider, token: string, instanceUrl?: string): Promise<Integration>;
  disconnect(provider: Provider): Promise<void>;
  /** One page of the CRM's contact lists (from `cursor`). */
  lists(provider: Provider, cursor?: string): Promise<CrmListPage>;
  /** What enriching a CRM list would make and cost at most (the list is read; nothing is created). */
  estimateList(source: Source): Promise<Estimate>;
  /** A batch made of a CRM list's members, safe to repeat with the same key. */
  enrichList(source: Source, idempotencyKey: string): Promise<BatchReceipt>;
  /** Starts a sync; answers its id. */
  startSync(request: CrmSyncRequest): Promise<string>;
  /** One page of a sync: its summary and the records from `cursor` (the first page without). */
  sync(id: string, cursor?: string): Promise<SyncPage>;
  /** Writes a completed dry run as previewed: the same sync runs again, then has appliedAt. */
  apply(id: string): Promise<void>;
  /** Undoes what a sync wrote: starts the undo (a sync of its own); answers its id. */
  undo(id: string): Promise<string>;
}

export function crmApi(doors: {
  crm: CrmClient;
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<unknown>;
}): CrmApi {
  const { crm, send } = doors;
  const call = async <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    (await send(method, path, body, headers)) as T;
  return {
    integrations: () => crm.integrations(),
    connect: (provider, token, instanceUrl) => crm.connect(provider, token, instanceUrl),
    disconnect: async (provider) => {
      await send("DELETE", `/integrations/${provider}`);
    },
    lists: (provider, cursor) => crm.lists(provider, cursor),
    estimateList: (source) => call("POST", "/person/contact-info/estimate", { source }),
    enrichList: (source, idempotencyKey) =>
      call("POST", "/person/contact-info", { source }, { "Idempotency-Key": idempotencyKey }),
    startSync: (request) => crm.startSync(request),
    sync: (id, cursor) => call("GET", `/crm-syncs/${id}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`),
    apply: (id) => crm.applySync(id),
    undo: (id) => crm.undoSync(id),
  };
}
