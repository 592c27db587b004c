// Calls through the Worker's own fetch, as a client makes them: submit, read a batch and
// its pages, check a problem answer; and the waits for a batch the real queue works on.
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { UsageReport } from "../src/account/views";
import type { Environment } from "../src/base/environment";
import { batchStub } from "../src/batch/stub";
import type { BatchPage, BatchPageData } from "../src/contact-info/batch-views";
import { ownerOf } from "./test-keys";
import { until } from "./until";

// Every batch a test submits is awaited after the test (batch-drain.ts, from setup.ts), so no
// queue work outlives the test file that caused it.
const submitted = new Map<string, string>();

/** The batches submitted (id → key) since the last call, forgotten here. */
export function takeSubmitted(): [batchId: string, key: string][] {
  const taken = [...submitted];
  submitted.clear();
  return taken;
}

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
  const read = await batchStub(env, batchId).status(ownerOf(key), { fromIndex: 0, limit: 1 });
  return read.kind === "page" ? read.page : null;
}

/** Waits until the batch is completed (or gone), reading its object directly. */
export function untilSettled(key: string, batchId: string, timeoutMs: number): Promise<BatchPageData | null> {
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

/** The key's usage report (GET …/me/usage in the test environment). */
export const usageOf = async (key: string) => (await request("/v2/test/me/usage", { key })).json<UsageReport>();
