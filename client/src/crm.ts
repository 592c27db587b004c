// The CRM part of the API (…/integrations, …/crm-syncs), as a client of its own beside createClient:
// the same key, waits and problems, for the CLI's `npm run crm` and the console's CRM tab.
import createOpenApiClient from "openapi-fetch";
import type { ClientOptions } from "./client.js";
import type { operations, paths } from "./schema.js";
import { sender, sleep } from "./send.js";

export type CrmSync = operations["getCrmSync"]["responses"][200]["content"]["application/json"];
export type CrmSyncRequest = operations["startCrmSync"]["requestBody"]["content"]["application/json"];
export type CrmSyncRecord = CrmSync["records"][number];
export type CrmProvider = CrmSyncRequest["provider"];
export type CrmConnection = operations["connectIntegration"]["responses"][200]["content"]["application/json"];
export type CrmListPage = operations["listIntegrationLists"]["responses"][200]["content"]["application/json"];

export interface CrmClient {
  connect(provider: CrmProvider, token: string, instanceUrl?: string): Promise<CrmConnection>;
  integrations(): Promise<CrmConnection[]>;
  /** One page of the CRM's contact lists (from `cursor`, a page's nextCursor): what a submit's source.listId takes. */
  lists(provider: CrmProvider, cursor?: string): Promise<CrmListPage>;
  /** Starts a sync (a dry run unless `dryRun: false`) and answers its id. */
  startSync(request: CrmSyncRequest): Promise<string>;
  /** Writes a completed dry run as previewed. */
  applySync(id: string): Promise<void>;
  /** Undoes a sync's writes: starts the undo (a sync of its own) and answers its id. */
  undoSync(id: string): Promise<string>;
  /** Polls until the sync is no longer running; answers its first page. */
  waitForSync(id: string, options?: { intervalMs?: number; onProgress?: (sync: CrmSync) => void }): Promise<CrmSync>;
  /** Every record of the sync, in item order, page after page. */
  records(id: string): AsyncGenerator<CrmSyncRecord, void, undefined>;
}

const INTEGRATION = "/v2/{environment}/integrations/{provider}";
const SYNCS = "/v2/{environment}/crm-syncs";
const SYNC = "/v2/{environment}/crm-syncs/{id}";

export function createCrmClient(options: ClientOptions): CrmClient {
  const { apiKey } = options;
  const environment = options.environment ?? (apiKey.startsWith("ck_live_") ? "live" : "test");
  const api = createOpenApiClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), fetch: options.fetch });
  api.use({
    onRequest({ request }) {
      request.headers.set("x-api-key", apiKey);
      return request;
    },
  });
  const send = sender(options.onWait);
  const page = async (id: string, limit: number, cursor?: string) =>
    (await send(() => api.GET(SYNC, { params: { path: { environment, id }, query: { limit, cursor } } }), undefined))
      .data;

  return {
    async connect(provider, token, instanceUrl) {
      const body = instanceUrl === undefined ? { token } : { token, instanceUrl };
      return (await send(() => api.PUT(INTEGRATION, { params: { path: { environment, provider } }, body }), undefined))
        .data;
    },
    async integrations() {
      const { data } = await send(
        () => api.GET("/v2/{environment}/integrations", { params: { path: { environment } } }),
        undefined,
      );
      return data.integrations;
    },
    async lists(provider, cursor) {
      const params = { path: { environment, provider }, query: { cursor } };
      return (await send(() => api.GET(`${INTEGRATION}/lists`, { params }), undefined)).data;
    },
    async startSync(request) {
      return (await send(() => api.POST(SYNCS, { params: { path: { environment } }, body: request }), undefined)).data
        .id;
    },
    async applySync(id) {
      await send(() => api.POST(`${SYNC}/apply`, { params: { path: { environment, id } } }), undefined);
    },
    async undoSync(id) {
      return (await send(() => api.POST(`${SYNC}/undo`, { params: { path: { environment, id } } }), undefined)).data.id;
    },
    async waitForSync(id, { intervalMs = 1000, onProgress } = {}) {
      for (;;) {
        const sync = await page(id, 1);
        onProgress?.(sync);
        if (sync.status !== "running") return sync;
        await sleep(intervalMs);
      }
    },
    async *records(id) {
      let cursor: string | undefined;
      do {
        const data = await page(id, 1000, cursor);
        yield* data.records;
        cursor = data.nextCursor ?? undefined;
      } while (cursor !== undefined);
    },
  };
}
