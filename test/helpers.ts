import { createExecutionContext, createMessageBatch, getQueueResult, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { readBatchRow } from "../src/batch/batch-row";
import type { ContactInfoBatch } from "../src/batch/contact-info-batch";
import type { ItemMessage } from "../src/batch/item-message";
import { nextStep } from "../src/batch/next-step";
import { batchStub } from "../src/batch/stub";
import { readConfig } from "../src/config";
import type { NewBatch } from "../src/contact-info/batch-contract";
import type { BatchPage, BatchPageData } from "../src/contact-info/batch-views";
import { normalizePerson, type PersonInput, personKey } from "../src/contact-info/person";
import type { Environment } from "../src/environment";
import entry from "../src/index";
import type { Jurisdiction } from "../src/jurisdiction";
import { apiKeyWrites, issueApiKey } from "../src/keys/api-key";
import type { RateLimitOverrides } from "../src/rate-limit/endpoint-types";
import type { BatchOwner } from "../src/tenant";
import { until } from "./until";

export { until };

/**
 * The real bindings with some vars replaced, for one call. (Assigning onto
 * `Object.create(env)` would write through to the shared env and leak into
 * every later test.)
 */
export function envWith(overrides: Record<string, unknown>): Env {
  return new Proxy(env, {
    get: (target, key) => (key in overrides ? overrides[key as string] : Reflect.get(target, key)),
  });
}

const owners = new Map<string, BatchOwner>();

/** A fresh key for a fresh customer, written to the real local KV the Worker reads. */
export async function createKey(
  options: {
    environment?: Environment;
    customerId?: string;
    rateLimits?: RateLimitOverrides;
    jurisdiction?: Jurisdiction;
  } = {},
) {
  const { key, hash, record } = await issueApiKey({
    customerId: options.customerId ?? `cus_${crypto.randomUUID()}`,
    environment: options.environment ?? "test",
    name: "test key",
    jurisdiction: options.jurisdiction,
  });
  if (options.rateLimits) record.rateLimits = options.rateLimits;
  for (const { key, value, metadata } of apiKeyWrites(hash, record)) await env.API_KEYS.put(key, value, { metadata });
  owners.set(key, { customerId: record.customerId, environment: record.environment });
  return { key, hash, record };
}

// Every batch a test submits is awaited after the test (see setup.ts), so no
// queue work outlives the test file that caused it.
const submitted = new Map<string, string>();

export async function request(path: string, init: RequestInit & { key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("x-api-key", init.key);
  const response = await exports.default.fetch(new Request(`https://api.test${path}`, { ...init, headers }));
  const batchId = response.status === 202 ? response.headers.get("location")?.split("/").pop() : undefined;
  if (batchId && init.key) submitted.set(batchId, init.key);
  return response;
}

export function submit(key: string, body: unknown, environment: Environment = "test") {
  return request(`/v2/${environment}/person/contact-info`, {
    method: "POST",
    key,
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export async function submitBatch(key: string, body: unknown, environment: Environment = "test"): Promise<string> {
  const response = await submit(key, body, environment);
  if (response.status !== 202) throw new Error(`submit answered ${response.status}: ${await response.text()}`);
  const { batchId } = await response.json<{ batchId: string }>();
  return batchId;
}

/** The status response body: the contract, typed by the same definitions the Worker uses. */
export type StatusBody = BatchPage;

export async function getStatus(key: string, batchId: string, query = "") {
  const environment = key.startsWith("ck_live_") ? "live" : "test";
  const response = await request(`/v2/${environment}/person/contact-info/${batchId}${query}`, { key });
  if (response.status !== 200) throw new Error(`status answered ${response.status}: ${await response.text()}`);
  return response.json<StatusBody>();
}

/**
 * The batch's counters and status read straight from its object, so polling
 * spends none of the key's rate limit. Null once the batch is gone or expired.
 */
export async function readBatch(key: string, batchId: string): Promise<BatchPageData | null> {
  const owner = owners.get(key);
  if (!owner) throw new Error("reading a batch directly needs a key made by createKey");
  const read = await batchStub(env, batchId).status(owner, { fromIndex: 0, limit: 1 });
  return read.kind === "page" ? read.page : null;
}

/** Waits until the batch is completed (or gone), reading its object directly. */
function untilSettled(key: string, batchId: string, timeoutMs: number): Promise<BatchPageData | null> {
  return until(() => readBatch(key, batchId), {
    what: `batch ${batchId} completed`,
    done: (batch) => batch === null || batch.status === "completed",
    timeoutMs,
  });
}

/** Waits for the real queue to finish the batch, then answers its status through the API. */
export async function waitForCompletion(key: string, batchId: string, timeoutMs = 20_000): Promise<StatusBody> {
  await untilSettled(key, batchId, timeoutMs);
  return getStatus(key, batchId);
}

/** Every page of the batch's items through the API, following nextCursor with `limit` items a page. */
export async function readPages(
  key: string,
  batchId: string,
  query: { limit: number; status?: string },
): Promise<StatusBody[]> {
  const pages: StatusBody[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({
      limit: String(query.limit),
      ...(query.status ? { status: query.status } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const page: StatusBody = await getStatus(key, batchId, `?${params}`);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

// A batch's last log line comes just after its completion becomes readable:
// batch_created for a batch complete at birth (every item invalid), else
// batch_completed. setup.ts waits for it, so no work outlives the test file.
const lastLineLogged = new Set<string>();

let watching = false;

/** Notes each batch's last log line; called by setup.ts before each test file (files share one runtime, see vitest.config.ts). */
export function watchBatchLogs(): void {
  if (watching) return;
  watching = true;
  const write = console.log.bind(console);
  console.log = (...args: unknown[]) => {
    const [line] = args;
    if (typeof line === "string" && /^\{"event":"batch_(created|completed)"/.test(line)) {
      const event = JSON.parse(line) as { event: string; batchId: string; items?: number; invalidItems?: number };
      if (event.event === "batch_completed" || event.items === event.invalidItems) lastLineLogged.add(event.batchId);
    }
    write(...args);
  };
}

/** Waits until every batch submitted since the last call has completed and logged its last line. */
export async function drainSubmittedBatches(timeoutMs = 60_000): Promise<void> {
  const pending = [...submitted];
  submitted.clear();
  await Promise.all(
    pending.map(async ([batchId, key]) => {
      if ((await untilSettled(key, batchId, timeoutMs)) === null) return;
      await until(() => lastLineLogged.has(batchId), {
        what: `batch ${batchId}'s last log line`,
        timeoutMs: 5_000,
        intervalMs: 10,
      });
    }),
  );
}

export const person = (overrides: Record<string, unknown> = {}) => ({
  firstName: "Ada",
  lastName: "Lovelace",
  companyDomain: "analytical.example",
  ...overrides,
});

export async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json<Record<string, unknown>>();
  expect(body).toMatchObject({ status, code });
  expect(body.type).toEqual(expect.stringContaining(code));
  expect(typeof body.title).toBe("string");
  expect(typeof body.detail).toBe("string");
  expect(typeof body.requestId).toBe("string");
  return body;
}

/**
 * A batch created straight in its Durable Object, with no fan-out, so the test
 * alone decides which messages the consumer sees; and the messages it would get.
 */
export async function createStoredBatch(items: PersonInput[], owner?: Awaited<ReturnType<typeof createKey>>) {
  const { key, record } = owner ?? (await createKey());
  const id = crypto.randomUUID();
  // Its messages vanish, so only what the test delivers is processed.
  const queue = faultyItemQueue(async () => {});
  await batchStub(env, id).create({
    id,
    customerId: record.customerId,
    environment: "test",
    keyId: record.keyId,
    fields: ["email", "phone"],
    createdAt: new Date().toISOString(),
    statusUrl: `https://api.test/v2/test/person/contact-info/${id}`,
    items: items.map((input) => ({ input, externalId: null, error: null })),
    leaders: items.map(() => null),
    stagedItems: 0,
  });
  await untilAtRest(batchStub(env, id));
  queue.mockRestore();
  const messages = items.map((input, index) => itemMessage(id, index, input));
  return { key, record, id, messages };
}

export const worker = entry as ExportedHandler<Env, ItemMessage> & {
  queue: NonNullable<ExportedHandler<Env, ItemMessage>["queue"]>;
};

/** Hands `messages` to the Worker's queue handler as one delivery from `queue`. */
export async function deliver(queue: string, messages: ItemMessage[], attempts = 1, workerEnv: Env = env) {
  const batch = createMessageBatch<ItemMessage>(
    queue,
    messages.map((body, i) => ({ id: `m${i}-${crypto.randomUUID()}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, workerEnv, ctx);
  return getQueueResult(batch, ctx);
}

/** A batch to create straight in its object, of `size` distinct valid items stored as an older deploy did (no normalized person). */
export const newBatch = (customerId: string, size: number): NewBatch => ({
  id: crypto.randomUUID(),
  customerId,
  environment: "test",
  keyId: "key_test",
  fields: ["email", "phone"],
  createdAt: new Date().toISOString(),
  statusUrl: "https://api.test/status",
  items: Array.from({ length: size }, (_, i) => ({
    input: person({ firstName: `P${i}` }),
    externalId: null,
    error: null,
  })),
  leaders: Array.from({ length: size }, () => null),
  stagedItems: 0,
});

/** How far the batch's fan-out got, read from its row. */
export const batchProgress = (stub: DurableObjectStub<ContactInfoBatch>) =>
  runInDurableObject(stub, (_, state) =>
    state.storage.sql
      .exec<{ next_enqueue_index: number; enqueue_failures: number }>(
        "SELECT next_enqueue_index, enqueue_failures FROM batch",
      )
      .one(),
  );

/**
 * Until a new batch's object is done with what its creation set off: every item
 * sent, the batch registered with its account, and the alarm armed for the wait
 * its plan names (by `create`'s first steps, or by the alarm after them), so a
 * test that moves the clock or runs the alarm starts from rest.
 */
export async function untilAtRest(stub: DurableObjectStub<ContactInfoBatch>): Promise<void> {
  await until(
    () =>
      runInDurableObject(stub, async (_, state) => {
        const row = readBatchRow(state.storage.sql);
        return { step: row && nextStep(row, Date.now(), readConfig(env)), alarm: await state.storage.getAlarm() };
      }),
    { what: "the new batch at rest", done: ({ step, alarm }) => step?.kind === "wait_until" && alarm === step.at },
  );
}

/** A message of one item, as the fan-out would send it (tests deliver items one by one, or in any grouping). */
export function itemMessage(batchId: string, index: number, input: PersonInput): ItemMessage {
  const person = normalizePerson(input);
  return {
    batchId,
    environment: "test",
    fields: ["email", "phone"],
    items: [{ index, person, personKey: personKey(person) }],
  };
}

/** The item message a sendBatch request carries: sent as its JSON text (item-message.ts). */
export function sentMessage(request: MessageSendRequest): ItemMessage {
  if (request.contentType !== "text" || typeof request.body !== "string")
    throw new Error("item messages are sent as JSON text");
  return JSON.parse(request.body) as ItemMessage;
}

/** The items the sendBatch calls of a spied queue sent, with their batch id, in order. */
export const sentItems = (calls: readonly (readonly [Iterable<MessageSendRequest>, ...unknown[]])[]) =>
  calls.flatMap(([requests]) =>
    [...requests].flatMap((request) => {
      const { batchId, environment, fields, items } = sentMessage(request);
      return items.map((item) => ({ batchId, environment, fields, ...item }));
    }),
  );

/**
 * Fault injection around the real item queue binding, shared by every object in
 * this isolate: `vi.restoreAllMocks()` (or the spy's mockRestore) puts it back.
 */
export function faultyItemQueue(
  sendBatch: (real: Queue["sendBatch"], messages: Iterable<MessageSendRequest>) => Promise<unknown>,
) {
  const real = env.ITEM_QUEUE.sendBatch.bind(env.ITEM_QUEUE);
  return vi
    .spyOn(env.ITEM_QUEUE, "sendBatch")
    .mockImplementation(async (messages) => (await sendBatch(real, messages)) as QueueSendBatchResponse);
}

/**
 * Sets the clock `ms` ahead of real time for the test and the Durable Objects
 * (they share its isolate). Only Date is faked, so polling still runs on real
 * timers; `vi.useRealTimers()` brings the clock back.
 */
export function setClockAhead(ms: number): void {
  vi.useRealTimers();
  const real = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(real + ms);
}
