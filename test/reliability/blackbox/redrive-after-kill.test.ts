import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatchPage } from "../../../src/batch/status";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../local-server";

// Black-box: `wrangler dev` is SIGKILLed mid-batch (items and a webhook in
// retry) and restarted on the same state. The local queue keeps its messages in
// memory, so they are lost; the batch objects' re-drive must finish the work.
const REDRIVE_AFTER_SECONDS = 15;
const RECEIVER_FAILURES = 2;

let server: LocalServer;
let key: ServerKey;
let receiver: Server;
let receiverUrl: string;
// Attempts per event id (webhook-id), and the answers given.
const attempts = new Map<string, number>();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const id = String(request.headers["webhook-id"]);
    const attempt = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, attempt);
    request.resume();
    request.on("end", () => response.writeHead(attempt <= RECEIVER_FAILURES ? 503 : 204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  let keys: ServerKey[] = [];
  server = await startLocalServer({
    prepare: async (state) => {
      keys = await seedKeys(state, [{ customerId: "cus_redrive", environment: "test" }]);
    },
    // `npm run dev` settings, with a shorter re-drive.
    vars: { RETRY_BASE_DELAY_SECONDS: "1", RETRY_MAX_DELAY_SECONDS: "2", REDRIVE_AFTER_SECONDS: String(REDRIVE_AFTER_SECONDS) },
  });
  key = keys[0]!;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { ...init, headers: { ...init.headers, "x-api-key": key.key } });
}

async function submit(items: unknown[]): Promise<string> {
  const response = await call("/v2/test/person/contact-info", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ items, webhookUrl: receiverUrl }),
  });
  expect(response.status).toBe(202);
  return (await response.json<{ batchId: string }>()).batchId;
}

async function readAll(batchId: string): Promise<BatchPage> {
  const first = await (await call(`/v2/test/person/contact-info/${batchId}`)).json<BatchPage>();
  let page = first;
  while (page.nextCursor) {
    page = await (await call(`/v2/test/person/contact-info/${batchId}?cursor=${page.nextCursor}`)).json<BatchPage>();
    first.items.push(...page.items);
  }
  return first;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const summary = async (batchId: string) => (await call(`/v2/test/person/contact-info/${batchId}?limit=1`)).json<BatchPage>();
const settled = (page: BatchPage) => page.status === "completed" && (page.webhook?.state === "delivered" || page.webhook?.state === "failed");

describe("after wrangler dev is killed mid-batch and restarted on the same state", () => {
  it("completes every batch with exact counters and settles every webhook within 2 minutes", async () => {
    const small = await submit(Array.from({ length: 3 }, (_, i) => ({ firstName: `Hook${i}`, lastName: "Early", companyDomain: "ok.example" })));
    const items = Array.from({ length: 300 }, (_, i) => ({
      firstName: `Kill${i}`,
      lastName: "Restart",
      companyDomain: i % 10 < 3 ? "flaky.test" : i % 10 < 4 ? "fail.test" : "ok.example",
    }));
    const large = await submit(items);

    // Kill once the small batch's webhook has had a failed attempt (it is in retry)
    // while the large batch is still open (its fail.test items retry for ~10 s).
    await until(async () => attempts.size, (size) => size > 0, 30_000, "first webhook attempt");
    const before = await summary(large);
    expect(before.status).not.toBe("completed");
    expect((await summary(small)).webhook?.state).toBe("queued");
    const killedAt = Date.now();
    await server.kill();
    await server.restart();
    const restartMs = Date.now() - killedAt;

    const [first, second] = await until(
      () => Promise.all([summary(small), summary(large)]),
      (pages) => pages.every(settled),
      120_000 - restartMs,
      "batches completed and webhooks settled",
    );
    console.log(
      `redrive: restart ${restartMs} ms, settled ${Date.now() - killedAt} ms after the kill; large batch was ${before.completedItems + before.failedItems}/300 at the kill; webhook attempts ${[...attempts.values()].join(",")}`,
    );
    expect(Date.now() - killedAt).toBeLessThan(120_000);
    for (const batch of [await readAll(small), await readAll(large)]) {
      expect(batch.items).toHaveLength(batch.totalItems);
      expect(batch.completedItems + batch.failedItems).toBe(batch.totalItems);
      expect(batch.items.filter((item) => item.status === "completed")).toHaveLength(batch.completedItems);
      expect(batch.items.filter((item) => item.status === "failed")).toHaveLength(batch.failedItems);
      expect(batch.items.filter((item) => item.status === "pending")).toEqual([]);
    }
    const all = await readAll(large);
    expect(all.items.filter((item) => item.input.companyDomain === "fail.test").every((item) => item.error?.code === "processing_failed")).toBe(true);
    expect(all.items.filter((item) => item.input.companyDomain !== "fail.test").every((item) => item.status === "completed")).toBe(true);
    expect([first!.webhook?.state, second!.webhook?.state]).toEqual([expect.stringMatching(/^(delivered|failed)$/), expect.stringMatching(/^(delivered|failed)$/)]);
  }, 300_000);
});
