import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../../scripts/local-server";
import type { BatchPage } from "../../../src/contact-info/batch-views";
import { type BatchClient, batchClient, expectExactCounts, until } from "../../blackbox-helpers";

// Black-box: `wrangler dev` is SIGKILLed mid-batch (items and a webhook in
// retry) and restarted on the same state. The local queue keeps its messages in
// memory, so they are lost; the batch objects' re-drive must finish the work.
const REDRIVE_AFTER_SECONDS = 15;
const RECEIVER_FAILURES = 2;

let server: LocalServer;
let api: BatchClient;
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
    vars: {
      RETRY_BASE_DELAY_SECONDS: "1",
      RETRY_MAX_DELAY_SECONDS: "2",
      REDRIVE_AFTER_SECONDS: String(REDRIVE_AFTER_SECONDS),
    },
  });
  api = batchClient(server, keys[0]!);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const submit = (items: unknown[]) => api.submit({ items, webhookUrl: receiverUrl });
const settled = (page: BatchPage) =>
  page.status === "completed" && (page.webhook?.state === "delivered" || page.webhook?.state === "failed");

describe("after wrangler dev is killed mid-batch and restarted on the same state", () => {
  it("completes every batch with exact counters and settles every webhook within 2 minutes", async () => {
    const small = await submit(
      Array.from({ length: 3 }, (_, i) => ({ firstName: `Hook${i}`, lastName: "Early", companyDomain: "ok.example" })),
    );
    const items = Array.from({ length: 300 }, (_, i) => ({
      firstName: `Kill${i}`,
      lastName: "Restart",
      companyDomain: i % 10 < 3 ? "flaky.test" : i % 10 < 4 ? "fail.test" : "ok.example",
    }));
    const large = await submit(items);

    // Kill once the small batch's webhook has had a failed attempt (it is in retry)
    // while the large batch is still open (its fail.test items retry for ~10 s).
    await until(() => attempts.size, {
      what: "the first webhook attempt made",
      done: (size) => size > 0,
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    const before = await api.summary(large);
    expect(before.status).not.toBe("completed");
    expect((await api.summary(small)).webhook?.state).toBe("queued");
    const killedAt = Date.now();
    await server.kill();
    await server.restart();
    const restartMs = Date.now() - killedAt;

    // The server may still be starting its Worker after the restart: a failed read means "not yet".
    const [first, second] = await until(() => Promise.all([api.summary(small), api.summary(large)]), {
      what: "both batches completed and their webhooks settled",
      done: (pages) => pages.every(settled),
      timeoutMs: 120_000 - restartMs,
      intervalMs: 250,
      retryErrors: true,
    });
    console.log(
      `redrive: restart ${restartMs} ms, settled ${Date.now() - killedAt} ms after the kill; large batch was ${before.completedItems + before.failedItems}/300 at the kill; webhook attempts ${[...attempts.values()].join(",")}`,
    );
    expect(Date.now() - killedAt).toBeLessThan(120_000);
    for (const batch of [await api.readAll(small), await api.readAll(large)]) expectExactCounts(batch);
    const all = await api.readAll(large);
    expect(
      all.items
        .filter((item) => item.input.companyDomain === "fail.test")
        .every((item) => item.error?.code === "processing_failed"),
    ).toBe(true);
    expect(
      all.items.filter((item) => item.input.companyDomain !== "fail.test").every((item) => item.status === "completed"),
    ).toBe(true);
    // The receiver fails each event's first RECEIVER_FAILURES attempts, well within WEBHOOK_MAX_ATTEMPTS (8).
    const delivered = expect.objectContaining({ state: "delivered", lastStatus: 204 });
    expect([first.webhook, second.webhook]).toEqual([delivered, delivered]);
  }, 300_000);
});
