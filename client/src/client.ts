// A thin wrapper over openapi-fetch for the batch API: the key set once, waits
// the server asks for (429, and 409 while an idempotent submit is still running)
// honoured, polling paced by the RateLimit field, results paged for you, and every
// error answer thrown as a typed ProblemError.
import createOpenApiClient from "openapi-fetch";
import { followBatch } from "./batch-events.js";
import type {
  BatchItem,
  BatchReceipt,
  BatchStatus,
  Budget,
  Environment,
  Estimate,
  Field,
  ItemStatusFilter,
  SubmitItem,
  WebhookEvent,
} from "./paths.js";
import type { Problem } from "./problem.js";
import { parseRateLimit, pollDelayMs } from "./rate-limit.js";
import type { paths } from "./schema.js";
import { sender, sleep } from "./send.js";

export interface ClientOptions {
  /** Where the API answers, e.g. http://127.0.0.1:8787 or https://contact-info-batch.<you>.workers.dev */
  baseUrl: string;
  apiKey: string;
  /** Default: the key's own, `live` for a ck_live_ key, else `test`. */
  environment?: Environment;
  fetch?: typeof globalThis.fetch;
  /** Told before each wait the server asked for: a 429 (`rate_limited`) or a 409 (`idempotency_in_progress`). */
  onWait?: (wait: { seconds: number; problem: Problem }) => void;
}

export interface SubmitOptions {
  /** What to find; default both. */
  fields?: Field[];
  webhookUrl?: string;
  /** What to send webhookUrl: default ["batch.completed"]; "item.completed" adds deliveries of finished items. Needs webhookUrl. */
  webhookEvents?: WebhookEvent[];
  /** The most the batch may charge, in credits; default no cap. */
  maxCredits?: number;
  /** Makes the submit safe to repeat for 24 h: the same key and body answer the same batch. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface Submitted extends BatchReceipt {
  /** The batch's status URL (the Location header). */
  location: string | null;
  /** True when the answer replays an earlier submit with the same Idempotency-Key. */
  replayed: boolean;
}

/** A batch's counters: the status without its items and webhook, as its event stream's progress events carry them. */
export type BatchSummary = Omit<BatchStatus, "items" | "nextCursor" | "webhook">;

export interface WaitOptions {
  /** Called with the batch's counters as they change (each event of the stream, or each poll). */
  onProgress?: (batch: BatchSummary) => void;
  /**
   * Called with each item as it finishes, over the event stream (`items=true`; after a reconnect an item
   * may come again: key it by index). Not called when the wait falls back to polling.
   */
  onItem?: (item: BatchItem) => void;
  signal?: AbortSignal;
  /** When polling: the shortest time between polls; default 1000 ms. Polls slow down further as the rate limit runs low. */
  intervalMs?: number;
  /** false: poll, never open the batch's event stream. Default true. */
  stream?: boolean;
}

export interface PageOptions {
  limit?: number;
  cursor?: string;
  status?: ItemStatusFilter;
  signal?: AbortSignal;
}

export interface Client {
  readonly environment: Environment;
  submit(items: SubmitItem[], options?: SubmitOptions): Promise<Submitted>;
  /** What a submit of these items would make and cost at most, without making it. */
  estimate(items: SubmitItem[], options?: Pick<SubmitOptions, "fields" | "maxCredits" | "signal">): Promise<Estimate>;
  /** This month's budget in the key's environment: set, used, reserved, remaining (GET …/me/budget). */
  budget(options?: { signal?: AbortSignal }): Promise<Budget>;
  /** One page of a batch. */
  getBatch(id: string, options?: PageOptions): Promise<BatchStatus>;
  /**
   * Follows the batch's event stream until it is completed and answers its counters;
   * polls instead when the stream cannot be opened or keeps failing.
   */
  waitForBatch(id: string, options?: WaitOptions): Promise<BatchSummary>;
  /** Every item of the batch (or those with `status`), in submission order, page after page. */
  items(
    id: string,
    options?: { status?: ItemStatusFilter; signal?: AbortSignal },
  ): AsyncGenerator<BatchItem, void, undefined>;
}

const BATCHES = "/v2/{environment}/person/contact-info";
const BATCH = "/v2/{environment}/person/contact-info/{id}";
const ESTIMATE = "/v2/{environment}/person/contact-info/estimate";
const EVENTS = "/v2/{environment}/person/contact-info/{id}/events";
const BUDGET = "/v2/{environment}/me/budget";

export function createClient(options: ClientOptions): Client {
  const { apiKey, onWait } = options;
  const environment: Environment = options.environment ?? (apiKey.startsWith("ck_live_") ? "live" : "test");
  const api = createOpenApiClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), fetch: options.fetch });
  api.use({
    onRequest({ request }) {
      request.headers.set("x-api-key", apiKey);
      return request;
    },
  });

  const send = sender(onWait);

  const page = (id: string, { limit, cursor, status, signal }: PageOptions) =>
    send(
      () => api.GET(BATCH, { params: { path: { environment, id }, query: { limit, cursor, status } }, signal }),
      signal,
    );

  return {
    environment,
    async submit(items, { fields, webhookUrl, webhookEvents, maxCredits, idempotencyKey, signal } = {}) {
      const { data, response } = await send(
        () =>
          api.POST(BATCHES, {
            params: {
              path: { environment },
              header: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey },
            },
            body: { items, fields, webhookUrl, webhookEvents, maxCredits },
            signal,
          }),
        signal,
      );
      return {
        ...data,
        location: response.headers.get("Location"),
        replayed: response.headers.get("Idempotent-Replayed") === "true",
      };
    },
    async estimate(items, { fields, maxCredits, signal } = {}) {
      const { data } = await send(
        () => api.POST(ESTIMATE, { params: { path: { environment } }, body: { items, fields, maxCredits }, signal }),
        signal,
      );
      return data;
    },
    async budget({ signal } = {}) {
      const { data } = await send(() => api.GET(BUDGET, { params: { path: { environment } }, signal }), signal);
      return data;
    },
    async getBatch(id, pageOptions = {}) {
      return (await page(id, pageOptions)).data;
    },
    async waitForBatch(id, { onProgress, onItem, signal, intervalMs = 1000, stream = true } = {}) {
      // Any answer but the stream (a 429, an older server's 404, a proxy that buffers) falls back to
      // polling, which waits out what the server asks for and throws the problems that are final.
      const open = async (lastEventId: string | undefined) => {
        const { data, response } = await api.GET(EVENTS, {
          params: {
            path: { environment, id },
            query: onItem ? { items: "true" } : {},
            header: lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId },
          },
          parseAs: "stream",
          signal,
        });
        const isStream = response.ok && response.headers.get("content-type")?.startsWith("text/event-stream");
        if (isStream && data) return data;
        await response.body?.cancel();
        return null;
      };
      const streamed = stream ? await followBatch<BatchSummary, BatchItem>(open, { onProgress, onItem }, signal) : null;
      if (streamed) return streamed;
      for (;;) {
        const { data, response } = await page(id, { limit: 1, signal });
        const { items: _items, nextCursor: _next, webhook: _webhook, ...summary } = data;
        onProgress?.(summary);
        if (summary.status === "completed") return summary;
        await sleep(pollDelayMs(parseRateLimit(response.headers.get("RateLimit")), intervalMs), signal);
      }
    },
    async *items(id, { status, signal } = {}) {
      let cursor: string | undefined;
      do {
        const { data } = await page(id, { cursor, status, signal });
        yield* data.items;
        cursor = data.nextCursor ?? undefined;
      } while (cursor !== undefined);
    },
  };
}
