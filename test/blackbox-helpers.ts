// Shared by the Node black-box tests against `wrangler dev` (scripts/local-server.ts):
// a client for the batch API with one key, and the checks every batch must pass.
import { spawn } from "node:child_process";
import { expect } from "vitest";
import type { LocalServer, ServerKey } from "../scripts/local-server";
import type { BatchPage } from "../src/contact-info/batch-views";
import { until } from "./until";

export { until };

export interface BatchClient {
  /** Any request with the key; the path is relative to the server. */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** Submits a batch and answers its id; anything but a 202 fails the test. */
  submit(body: { items: unknown[]; webhookUrl?: string }): Promise<string>;
  /** The batch's counters, status and webhook, with one item. */
  summary(batchId: string): Promise<BatchPage>;
  /** The batch with every item, following nextCursor. */
  readAll(batchId: string): Promise<BatchPage>;
  /** Waits until every batch is completed, then reads each in full. */
  untilCompleted(batchIds: string[], timeoutMs: number): Promise<BatchPage[]>;
}

/** A client for the batch API of `server` in `key`'s environment; `onResponse` sees every response. */
export function batchClient(
  server: LocalServer,
  key: ServerKey,
  onResponse: (response: Response) => void = () => {},
): BatchClient {
  const batches = `/v2/${key.environment}/person/contact-info`;
  // server.url is read per call: a restart may move the server to another port.
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { ...init.headers, "x-api-key": key.key },
    });
    onResponse(response);
    return response;
  };
  const read = async (path: string) => {
    const response = await call(path);
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
    return response.json<BatchPage>();
  };
  const summary = (batchId: string) => read(`${batches}/${batchId}?limit=1`);
  const readAll = async (batchId: string) => {
    const first = await read(`${batches}/${batchId}`);
    for (let page = first; page.nextCursor; ) {
      page = await read(`${batches}/${batchId}?cursor=${page.nextCursor}`);
      first.items.push(...page.items);
    }
    return first;
  };
  return {
    call,
    async submit(body) {
      const response = await call(batches, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(202);
      return (await response.json<{ batchId: string }>()).batchId;
    },
    summary,
    readAll,
    async untilCompleted(batchIds, timeoutMs) {
      const open = new Set(batchIds);
      await until(
        async () => {
          for (const batchId of [...open]) if ((await summary(batchId)).status === "completed") open.delete(batchId);
          return open.size;
        },
        {
          what: `all ${batchIds.length} batches completed (last read: the number still open)`,
          done: (stillOpen) => stillOpen === 0,
          timeoutMs,
          intervalMs: 250,
        },
      );
      return Promise.all(batchIds.map(readAll));
    },
  };
}

/** Every item is accounted for exactly once: the counters match the items, and none is left pending. */
export function expectExactCounts(batch: BatchPage): void {
  expect(batch.items).toHaveLength(batch.totalItems);
  expect(batch.completedItems + batch.failedItems).toBe(batch.totalItems);
  expect(batch.items.filter((item) => item.status === "completed")).toHaveLength(batch.completedItems);
  expect(batch.items.filter((item) => item.status === "failed")).toHaveLength(batch.failedItems);
  expect(batch.items.filter((item) => item.status === "pending")).toEqual([]);
}

/**
 * Runs a command (a tool, as `npm run keys -- …`) to its end without blocking this process, so the
 * connections it keeps alive to a server stay in step with it. A synchronous run (spawnSync,
 * execFileSync) holds the event loop: the server closes a connection idle for 15 s (wrangler dev),
 * nothing here notices, and the next request on it fails before any answer (`fetch failed`, "other
 * side closed"). On a busy machine a tool takes longer than that (issue 25).
 */
export function runTool(
  command: string,
  args: readonly string[],
  { env = process.env, timeoutMs = 180_000 }: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}
