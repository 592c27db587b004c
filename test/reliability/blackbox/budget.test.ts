import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../../scripts/local-server";
import type { UsageReport } from "../../../src/account/views";
import type { BatchPage } from "../../../src/contact-info/batch-views";
import type { BudgetState } from "../../../src/credits/budget-store";
import type { LedgerEntry } from "../../../src/credits/ledger";
import { type BatchClient, batchClient, expectExactCounts, runTool, until } from "../../blackbox-helpers";

// Black-box (issue 50): the monthly budget against `wrangler dev`: set, read and refused; 20 submits at
// once; a key's cap set with the key tool; budget.threshold to a receiver on 127.0.0.1; the ledger (JSON
// and CSV) equal to usage and the batches; customers apart; and a kill -9 mid-batch, after which the
// month is still exact.
const REDRIVE_AFTER_SECONDS = 15;
const KEY_CAP = 11;

let server: LocalServer;
let keys: ServerKey[] = [];
let alice: BatchClient;
let capped: BatchClient;
let bob: BatchClient;
let carol: BatchClient;
let dave: BatchClient;
let receiver: Server;
let hooks: string;
const received: { path: string; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "/", body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hooks = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  server = await startLocalServer({
    prepare: async (state) => {
      keys = await seedKeys(state, [
        { customerId: "cus_budget_alice", environment: "test" },
        { customerId: "cus_budget_alice", environment: "test" },
        { customerId: "cus_budget_bob", environment: "test" },
        { customerId: "cus_budget_carol", environment: "test" },
        { customerId: "cus_budget_dave", environment: "test" },
      ]);
      // The operator caps alice's second key with the key tool, as docs/operate.md says.
      const set = await runTool(
        "npm",
        ["run", "--silent", "keys", "--", "set-budget", keys[1]!.keyId, "--monthly-credits", String(KEY_CAP)].concat([
          "--local",
          "--persist-to",
          state,
        ]),
        { env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } },
      );
      expect(set.status, set.stderr).toBe(0);
      const shown = await runTool(
        "npm",
        ["run", "--silent", "keys", "--", "show", keys[1]!.keyId, "--local", "--persist-to", state],
        { env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } },
      );
      expect(shown.stdout).toContain(`monthly cap: ${KEY_CAP} credits`);
    },
    vars: {
      RETRY_BASE_DELAY_SECONDS: "1",
      RETRY_MAX_DELAY_SECONDS: "2",
      REDRIVE_AFTER_SECONDS: String(REDRIVE_AFTER_SECONDS),
      WEBHOOK_RETRY_SCHEDULE: "1s,2s,2s",
    },
  });
  [alice, capped, bob, carol, dave] = keys.map((key) => batchClient(server, key)) as [
    BatchClient,
    BatchClient,
    BatchClient,
    BatchClient,
    BatchClient,
  ];
}, 420_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const json = (method: string, body: unknown) => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const read = async <T>(client: BatchClient, path: string): Promise<T> => {
  const response = await client.call(path);
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
  return response.json<T>();
};
const budgetOf = (client: BatchClient) => read<BudgetState>(client, "/v2/test/me/budget");
const setBudget = async (client: BatchClient, body: unknown) => {
  const response = await client.call("/v2/test/me/budget", json("PUT", body));
  expect(response.status).toBe(200);
  return response.json<BudgetState>();
};
const submit = (client: BatchClient, body: unknown) => client.call("/v2/test/person/contact-info", json("POST", body));
const batchIds = async (client: BatchClient) =>
  (await read<{ batches: { id: string }[] }>(client, "/v2/test/person/contact-info?limit=100")).batches.map(
    (b) => b.id,
  );
const person = (i: number, domain = "ok.example") => ({ firstName: `Bud${i}`, lastName: "Get", companyDomain: domain });

async function ledgerOf(client: BatchClient): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: { entries: LedgerEntry[]; nextCursor: string | null } = await read(
      client,
      `/v2/test/me/ledger?limit=50${cursor ? `&cursor=${cursor}` : ""}`,
    );
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}

/** Once every batch completed and reported: the month, the ledger, usage and the batches all say the same. */
async function expectMonthExact(client: BatchClient, batches: BatchPage[]) {
  const charged = batches.reduce((sum, batch) => sum + batch.creditsCharged, 0);
  const budget = await until(() => budgetOf(client), {
    what: "the batches' charges reported to the account (reserved back to 0)",
    done: (state) => state.reserved === 0 && state.usedThisMonth === charged,
    timeoutMs: 60_000,
    intervalMs: 250,
  });
  const { totals } = await read<UsageReport>(client, "/v2/test/me/usage");
  expect(totals.credits - totals.creditsRefunded).toBe(budget.usedThisMonth);
  const ledger = await ledgerOf(client);
  const sum = (kind: string) => ledger.filter((e) => e.kind === kind).reduce((total, e) => total + e.credits, 0);
  expect([sum("charge"), sum("refund")]).toEqual([totals.credits, totals.creditsRefunded]);
  for (const batch of batches) {
    const items = ledger.filter((entry) => entry.batchId === batch.id);
    for (const item of batch.items)
      expect(items.filter((e) => e.index === item.index).reduce((total, e) => total + e.credits, 0)).toBe(item.credits);
  }
  if (budget.monthlyCredits !== null) expect(budget.usedThisMonth).toBeLessThanOrEqual(budget.monthlyCredits);
  return { budget, ledger };
}

describe("the monthly budget against wrangler dev (issue 50)", () => {
  it("is set and read, refuses a batch past it with 402 budget_exceeded creating nothing, and sends budget.threshold once", async () => {
    const endpoint = await alice.call(
      "/v2/test/webhook-endpoints",
      json("POST", { url: `${hooks}/alice`, events: ["budget.threshold"] }),
    );
    expect(endpoint.status).toBe(201);
    expect(await setBudget(alice, { monthlyCredits: 100, alertPercents: [10] })).toMatchObject({
      monthlyCredits: 100,
      usedThisMonth: 0,
      remaining: 100,
      alertPercents: [10],
    });
    const before = await batchIds(alice);
    const refused = await submit(alice, { items: [person(0)], maxCredits: 101 });
    expect(refused.status).toBe(402);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({
      code: "budget_exceeded",
      remaining: 100,
      cap: 101,
      scope: "customer",
    });
    expect(await batchIds(alice)).toEqual(before);

    const first = await alice.submit({ items: [person(1), person(2)] });
    const second = await alice.submit({ items: [person(3)] });
    const batches = await alice.untilCompleted([first, second], 60_000);
    const { budget } = await expectMonthExact(alice, batches);
    expect(budget.usedThisMonth).toBeGreaterThanOrEqual(10);
    const events = await until(() => received.filter((r) => r.path === "/alice"), {
      what: "budget.threshold delivered",
      done: (list) => list.length > 0,
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    expect(JSON.parse(events[0]!.body)).toMatchObject({
      type: "budget.threshold",
      data: { percent: 10, monthlyCredits: 100 },
    });
    const third = await alice.submit({ items: [person(4)] });
    await alice.untilCompleted([third], 60_000);
    await expectMonthExact(alice, await Promise.all([first, second, third].map((id) => alice.readAll(id))));
    expect(received.filter((r) => r.path === "/alice")).toHaveLength(1);
  });

  it("holds a key to the cap the key tool set, naming the key's cap", async () => {
    const batchId = await capped.submit({ items: [person(5)] });
    const refused = await submit(capped, { items: [person(6)] });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ code: "budget_exceeded", scope: "key", monthlyCredits: KEY_CAP });
    await capped.untilCompleted([batchId], 60_000);
    expect((await budgetOf(capped)).key).toMatchObject({ monthlyCredits: KEY_CAP });
  });

  it("never lets 20 submits at once reserve past the budget", async () => {
    await setBudget(carol, { monthlyCredits: 55 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit(carol, { items: [person(100 + i)] })),
    );
    const statuses = answers.map((response) => response.status);
    // Each reserves its estimate's maximum, 11 (an email and a phone): 5 fit in 55.
    expect(statuses.filter((status) => status === 202)).toHaveLength(5);
    expect(statuses.filter((status) => status === 402)).toHaveLength(15);
    const ids = await Promise.all(
      answers.filter((r) => r.status === 202).map(async (r) => (await r.json<{ batchId: string }>()).batchId),
    );
    for (const response of answers.filter((r) => r.status === 402)) await response.body?.cancel();
    expect((await batchIds(carol)).sort()).toEqual([...ids].sort());
    await expectMonthExact(carol, await carol.untilCompleted(ids, 90_000));
  });

  it("shows the ledger as CSV with the same entries, and another customer none of it", async () => {
    const ledger = await ledgerOf(alice);
    const csv = await alice.call("/v2/test/me/ledger?limit=1000", { headers: { accept: "text/csv" } });
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const rows = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(rows[0]).toBe("at,kind,batchId,index,contact,source,credits");
    expect(rows.slice(1)).toEqual(
      ledger.map((e) => [e.at, e.kind, e.batchId, e.index, e.contact, e.source, e.credits].join(",")),
    );
    expect(await ledgerOf(bob)).toEqual([]);
    expect(await budgetOf(bob)).toMatchObject({ monthlyCredits: null, usedThisMonth: 0, reserved: 0 });
  });

  it("keeps the month exact through a kill -9 of the server during a reserved batch", async () => {
    await setBudget(dave, { monthlyCredits: 2000 });
    const items = Array.from({ length: 120 }, (_, i) => person(200 + i, i % 10 < 3 ? "flaky.test" : "ok.example"));
    const batchId = await dave.submit({ items });
    const open = await budgetOf(dave);
    expect(open.reserved + open.usedThisMonth).toBe(120 * 11);
    expect((await dave.summary(batchId)).status).not.toBe("completed");
    await server.kill();
    await server.restart();
    const [batch] = await until(() => dave.untilCompleted([batchId], 150_000), {
      what: "the batch completed after the restart",
      done: () => true,
      timeoutMs: 180_000,
      intervalMs: 1000,
      retryErrors: true,
    });
    expectExactCounts(batch!);
    await expectMonthExact(dave, [batch!]);
  }, 300_000);
});
