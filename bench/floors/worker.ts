// The floors for `npm run bench`: per request, what the platform costs at the least
// for what a route of the service must do. The submit floors are POSTed the same
// body as the service's submit, with the same autocannon settings.
//
// /submit: the body is parsed, a fresh SQLite Durable Object is created, its items
// are written in one transaction (table included) and an alarm is set; the alarm
// does nothing. This is the floor the submit's target is set against.
//
// /submit-and-send: the same, and then, after answering (as the service's `create`
// does), the items are sent to a queue in messages shaped like the service's (JSON
// text, ITEMS_PER_MESSAGE items each, and as many per consumer invocation as the
// service takes), which a no-op consumer acks, and the batch is registered with a second object
// (one row). The platform's share of what the service must also do per batch, so
// the submit's remaining gap to it is the service's own code.
//
// GET /read?bytes=N: what a status read must do on the platform: two calls in
// parallel to existing objects, one counting the request with an INSERT (as the
// rate limiter does), one reading a row and returning a page of N bytes kept in
// memory (as the batch does), and that page as the answer.
import { DurableObject } from "cloudflare:workers";
import { ITEMS_PER_MESSAGE } from "../../src/bench-api";

interface FloorEnv {
  BATCHES: DurableObjectNamespace<FloorBatch>;
  ACCOUNTS: DurableObjectNamespace<FloorAccount>;
  COUNTERS: DurableObjectNamespace<FloorCounter>;
  QUEUE: Queue;
}

export class FloorBatch extends DurableObject<FloorEnv> {
  async create(items: unknown[], { send = false } = {}): Promise<number> {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      sql.exec(
        "CREATE TABLE items (item_index INTEGER PRIMARY KEY, input TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending')",
      );
      items.forEach((item, index) => {
        sql.exec("INSERT INTO items (item_index, input) VALUES (?, ?)", index, JSON.stringify(item));
      });
    });
    await this.ctx.storage.setAlarm(Date.now());
    if (send) this.ctx.waitUntil(scheduler.wait(0).then(() => this.#sendAndRegister(items)));
    return items.length;
  }

  async #sendAndRegister(items: unknown[]): Promise<void> {
    const batchId = this.ctx.id.toString();
    const messages = [];
    for (let start = 0; start < items.length; start += ITEMS_PER_MESSAGE) {
      const group = items.slice(start, start + ITEMS_PER_MESSAGE).map((input, i) => ({ index: start + i, input }));
      const body = JSON.stringify({ batchId, environment: "test", fields: ["email", "phone"], items: group });
      messages.push({ body, contentType: "text" as const });
    }
    await this.env.QUEUE.sendBatch(messages);
    await this.env.ACCOUNTS.getByName("account").register(batchId, items.length);
  }

  override async alarm(): Promise<void> {}
}

export class FloorAccount extends DurableObject<FloorEnv> {
  readonly #pages = new Map<number, string>();

  constructor(ctx: DurableObjectState, env: FloorEnv) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS batches (id TEXT PRIMARY KEY, items INTEGER NOT NULL)");
  }

  register(batchId: string, items: number): void {
    this.ctx.storage.sql.exec("INSERT INTO batches (id, items) VALUES (?, ?)", batchId, items);
  }

  /** The batch's part of a status read, for /read: one row read, and a page of `bytes` ASCII characters kept in memory. */
  read(bytes: number): { row: { id: string; items: number } | null; page: string } {
    const row =
      this.ctx.storage.sql.exec<{ id: string; items: number }>("SELECT id, items FROM batches LIMIT 1").toArray()[0] ??
      null;
    let page = this.#pages.get(bytes);
    if (page === undefined) {
      page = JSON.stringify("x".repeat(Math.max(0, bytes - 2)));
      this.#pages.set(bytes, page);
    }
    return { row, page };
  }
}

/** /read's counter: one INSERT per call, the rate limiter's part of a status read. */
export class FloorCounter extends DurableObject<FloorEnv> {
  constructor(ctx: DurableObjectState, env: FloorEnv) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS hits (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL)");
  }

  count(): void {
    this.ctx.storage.sql.exec("INSERT INTO hits (at) VALUES (?)", Date.now());
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const { pathname } = url;
    if (request.method === "GET" && pathname === "/read") {
      const bytes = Number(url.searchParams.get("bytes") ?? 0);
      const [, { page }] = await Promise.all([
        env.COUNTERS.getByName("customer").count(),
        env.ACCOUNTS.getByName("account").read(bytes),
      ]);
      return new Response(page, { headers: { "content-type": "application/json" } });
    }
    if (request.method !== "POST" || (pathname !== "/submit" && pathname !== "/submit-and-send")) {
      return new Response("not found", { status: 404 });
    }
    const { items } = (await request.json()) as { items: unknown[] };
    const id = env.BATCHES.newUniqueId();
    const itemCount = await env.BATCHES.get(id).create(items, { send: pathname === "/submit-and-send" });
    return Response.json({ batchId: id.toString(), itemCount }, { status: 202 });
  },
  async queue(batch) {
    batch.ackAll();
  },
} satisfies ExportedHandler<FloorEnv>;
