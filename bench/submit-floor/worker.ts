// The floor for `npm run bench`'s submit: per request, what one batch costs the
// platform at the least. The body is parsed, a fresh SQLite Durable Object is
// created, its items are written in one transaction (table included) and an alarm is
// set, as a submit's fan-out needs; the alarm does nothing. POSTed the same body as
// the service's submit, with the same autocannon settings.
import { DurableObject } from "cloudflare:workers";

interface FloorEnv {
  BATCHES: DurableObjectNamespace<FloorBatch>;
}

export class FloorBatch extends DurableObject {
  async create(items: unknown[]): Promise<number> {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      sql.exec("CREATE TABLE items (item_index INTEGER PRIMARY KEY, input TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending')");
      items.forEach((item, index) => {
        sql.exec("INSERT INTO items (item_index, input) VALUES (?, ?)", index, JSON.stringify(item));
      });
    });
    await this.ctx.storage.setAlarm(Date.now());
    return items.length;
  }

  override async alarm(): Promise<void> {}
}

export default {
  async fetch(request, env) {
    if (request.method !== "POST" || new URL(request.url).pathname !== "/submit") return new Response("not found", { status: 404 });
    const { items } = (await request.json()) as { items: unknown[] };
    const id = env.BATCHES.newUniqueId();
    const itemCount = await env.BATCHES.get(id).create(items);
    return Response.json({ batchId: id.toString(), itemCount }, { status: 202 });
  },
} satisfies ExportedHandler<FloorEnv>;
