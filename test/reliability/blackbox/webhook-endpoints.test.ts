import { createServer, type Server } from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../../scripts/local-server";
import { type BatchClient, batchClient, until } from "../../blackbox-helpers";

// Black-box: webhook endpoints against `wrangler dev`, delivered to a receiver on 127.0.0.1 that
// answers each event's first attempt 500 on /flaky, everything 500 on /down while `down` is set, and
// 200 otherwise; every delivery is verified with the reference implementation (standardwebhooks).
type Received = { path: string; headers: Record<string, string>; body: string };

let server: LocalServer;
let alice: BatchClient;
let bob: BatchClient;
let receiver: Server;
let base: string;
const received: Received[] = [];
let down = true;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      const path = request.url ?? "/";
      const earlier = received.filter((r) => r.path === path && r.headers["webhook-id"] === headers["webhook-id"]);
      received.push({ path, headers, body: Buffer.concat(chunks).toString("utf8") });
      const fail = (path.startsWith("/flaky") && earlier.length === 0) || (path.startsWith("/down") && down);
      response.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  let keys: ServerKey[] = [];
  server = await startLocalServer({
    prepare: async (state) => {
      keys = await seedKeys(state, [
        { customerId: "cus_hooks_alice", environment: "test" },
        { customerId: "cus_hooks_bob", environment: "test" },
      ]);
    },
    vars: { RETRY_BASE_DELAY_SECONDS: "1", RETRY_MAX_DELAY_SECONDS: "2", WEBHOOK_RETRY_SCHEDULE: "1s,2s,2s" },
  });
  alice = batchClient(server, keys[0]!);
  bob = batchClient(server, keys[1]!);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

async function createEndpoint(client: BatchClient, path: string, events: string[]) {
  const response = await client.call("/v2/test/webhook-endpoints", json({ url: `${base}${path}`, events }));
  expect(response.status).toBe(201);
  return response.json<{ id: string; secret: string }>();
}

type Logged = { id: string; status: string; attempts: { statusCode: number | null }[] };
const log = async (client: BatchClient, query: string) =>
  (await (await client.call(`/v2/test/webhook-deliveries${query}`)).json<{ deliveries: Logged[] }>()).deliveries;
const at = (path: string) => received.filter((delivery) => delivery.path === path);

describe("webhook endpoints against wrangler dev", () => {
  it("retry a 500 until the 200, log each attempt, verify with standardwebhooks, and keep customers apart", async () => {
    const hook = await createEndpoint(alice, "/flaky/alice", ["batch.completed"]);
    await createEndpoint(bob, "/flaky/bob", ["batch.completed"]);
    const gone = await createEndpoint(alice, "/deleted", ["batch.completed"]);
    expect((await alice.call(`/v2/test/webhook-endpoints/${gone.id}`, { method: "DELETE" })).status).toBe(204);
    const items = [{ firstName: "Ada", lastName: "Hook", companyDomain: "ok.example" }];
    const batchId = await alice.submit({ items });

    const logged = await until(() => log(alice, `?endpointId=${hook.id}`), {
      what: "the delivery succeeded on its second attempt",
      done: (deliveries) => deliveries[0]?.status === "succeeded",
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    expect(logged[0]!.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 200]);
    const attempts = at("/flaky/alice");
    expect(attempts.map((delivery) => delivery.headers["webhook-id"])).toEqual([logged[0]!.id, logged[0]!.id]);
    for (const delivery of attempts) {
      expect(new Webhook(hook.secret).verify(delivery.body, delivery.headers)).toMatchObject({
        type: "batch.completed",
        data: { id: batchId },
      });
    }
    // Bob's endpoint and the deleted one were sent nothing; Bob sees none of Alice's log.
    expect(at("/flaky/bob")).toEqual([]);
    expect(at("/deleted")).toEqual([]);
    expect(await log(bob, "")).toEqual([]);
    expect((await bob.call(`/v2/test/webhook-deliveries/${logged[0]!.id}`)).status).toBe(404);
    expect((await bob.call(`/v2/test/webhook-endpoints/${hook.id}`)).status).toBe(404);

    // Redeliver: the same webhook-id, signed afresh.
    expect(
      (await alice.call(`/v2/test/webhook-deliveries/${logged[0]!.id}/redeliver`, { method: "POST" })).status,
    ).toBe(202);
    const again = await until(() => at("/flaky/alice"), { what: "the redelivery", done: (list) => list.length === 3 });
    expect(again[2]!.headers["webhook-id"]).toBe(logged[0]!.id);
    expect(new Webhook(hook.secret).verify(again[2]!.body, again[2]!.headers)).toBeTruthy();

    // Erasing the person: no stored payload holds them (batch.completed carries counts, never a person).
    const detail = await (await alice.call(`/v2/test/webhook-deliveries/${logged[0]!.id}`)).json<{ payload: string }>();
    const erasure = await alice.call("/v2/test/privacy/erasures", json({ ...items[0], suppress: false }));
    expect(erasure.status).toBeLessThan(300);
    for (const text of [detail.payload, ...at("/flaky/alice").map((delivery) => delivery.body)]) {
      expect(text).not.toMatch(/Ada|Hook/);
    }
  });

  it("loses no delivery across a restart of the server mid-schedule; recover and rotation keep verifying", async () => {
    const since = new Date().toISOString();
    const hook = await createEndpoint(alice, "/down/restart", ["webhook.test"]);
    const test = await alice.call(`/v2/test/webhook-endpoints/${hook.id}/test`, { method: "POST" });
    const { id } = await test.json<{ id: string }>();
    await until(() => at("/down/restart"), {
      what: "the first attempt",
      done: (list) => list.length >= 1,
      intervalMs: 50,
    });
    await server.kill();
    // Killed between attempts: the schedule's next one was still ahead, kept only in the hub's SQLite and alarm.
    expect(at("/down/restart")).toHaveLength(1);
    down = false;
    await server.restart();
    const settled = await until(() => log(alice, `?endpointId=${hook.id}`), {
      what: "the delivery succeeded after the restart",
      done: (deliveries) => deliveries[0]?.status === "succeeded",
      timeoutMs: 90_000,
      intervalMs: 250,
      retryErrors: true,
    });
    expect(settled[0]!.id).toBe(id);
    expect(at("/down/restart").every((delivery) => delivery.headers["webhook-id"] === id)).toBe(true);

    // Recover re-sends what did not succeed since `since`; rotation makes each delivery verify with both secrets.
    down = true;
    const failing = await createEndpoint(alice, "/down/recover", ["webhook.test"]);
    const failed = await (await alice.call(`/v2/test/webhook-endpoints/${failing.id}/test`, { method: "POST" })).json<{
      id: string;
    }>();
    await until(() => log(alice, `?endpointId=${failing.id}`), {
      what: "the delivery failed for good",
      done: (deliveries) => deliveries[0]?.status === "failed",
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    down = false;
    const rotated = await alice.call(`/v2/test/webhook-endpoints/${failing.id}/rotate-secret`, { method: "POST" });
    const { secret } = await rotated.json<{ secret: string }>();
    const recovered = await alice.call(`/v2/test/webhook-endpoints/${failing.id}/recover`, json({ since }));
    expect(await recovered.json()).toEqual({ count: 1 });
    const [last] = (
      await until(() => at("/down/recover"), {
        what: "the recovered delivery",
        done: (list) => list.at(-1) !== undefined && list.length === 5,
      })
    ).slice(-1);
    expect(last!.headers["webhook-id"]).toBe(failed.id);
    expect(new Webhook(secret).verify(last!.body, last!.headers)).toMatchObject({ type: "webhook.test" });
    expect(new Webhook(failing.secret).verify(last!.body, last!.headers)).toMatchObject({ type: "webhook.test" });
  }, 180_000);
});
