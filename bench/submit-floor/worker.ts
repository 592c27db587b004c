// The floors for `npm run bench`'s submit: per request, what one batch costs the
// platform at the least. POSTed the same body as the service's submit, with the
// same autocannon settings.
//
// /submit: the body is parsed, a fresh SQLite Durable Object is created, its items
// are written in one transaction (table included) and an alarm is set; the alarm
// does nothing. This is the floor the submit's target is set against.
//
// /submit-and-send: the same, and then, after answering (as the service's `create`
// does), the items are sent to a queue as 100 messages shaped like the service's,
// which a no-op consumer acks, and the batch is registered with a second object
// (one row). The platform's share of what the service must also do per batch, so
// the submit's remaining gap to it is the service's own code.
import { DurableObject } from "cloudflare:workers";

interface FloorEnv {
  BATCHES: DurableObjectNamespace<FloorBatch>;
  ACCOUNTS: DurableObjectNamespace<FloorAccount>;
  QUEUE: Queue;
}

export class FloorBatch extends DurableObject<FloorEnv> {
  async create(items: unknown[], { send = false } = {}): Promise<number> {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      sql.exec("CREATE TABLE items (item_index INTEGER PRIMARY KEY, input TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending')");
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
    await this.env.QUEUE.sendBatch(
      items.map((input, index) => ({ body: { batchId, index, environment: "test", fields: ["email", "phone"], input } })),
    );
    await this.env.ACCOUNTS.get(this.env.ACCOUNTS.idFromName("account")).register(batchId, items.length);
  }

  override async alarm(): Promise<void> {}
}

export class FloorAccount extends DurableObject<FloorEnv> {
  register(batchId: string, items: number): void {
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS batches (id TEXT PRIMARY KEY, items INTEGER NOT NULL)");
    sql.exec("INSERT INTO batches (id, items) VALUES (?, ?)", batchId, items);
  }
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
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
