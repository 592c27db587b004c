// The platform's ceilings for `npm run bench:e2e`: the local queue's own pace with
// a consumer that does nothing but count what it receives, on two queues:
// - QUEUE: one item per message, 100 messages per invocation. The reference,
//   and the service's shape before items were grouped.
// - GROUPED_QUEUE: the service's shape today (ITEMS_PER_MESSAGE items per message,
//   10 messages per invocation): what the service's own code costs on top of its queue.
import { DurableObject } from "cloudflare:workers";
import { ITEMS_PER_MESSAGE } from "../../src/bench-api";

interface CeilingEnv {
  QUEUE: Queue;
  GROUPED_QUEUE: Queue;
  COUNTER: DurableObjectNamespace<Counter>;
}

export class Counter extends DurableObject {
  #count = 0;
  /** When the last items were counted (epoch ms): the benchmark's end time, free of its polling step. */
  #countedAt = 0;
  add(n: number): number {
    this.#count += n;
    this.#countedAt = Date.now();
    return this.#count;
  }
  count(): { count: number; countedAt: number } {
    return { count: this.#count, countedAt: this.#countedAt };
  }
}

const counter = (env: CeilingEnv) => env.COUNTER.get(env.COUNTER.idFromName("count"));

// An item shaped and sized like the service's: the normalized person and its key.
const item = (index: number) => {
  const person = { firstName: `e2e${index}`, lastName: "person", companyDomain: "e2e.example" };
  return { index, person, personKey: JSON.stringify(Object.entries(person).sort()) };
};
const batch = { batchId: "00000000-0000-4000-8000-000000000000", environment: "test", fields: ["email", "phone"] };

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/count") return Response.json(await counter(env).count());
    if (url.pathname !== "/produce") return new Response("not found", { status: 404 });
    const n = Number(url.searchParams.get("n"));
    const grouped = url.searchParams.get("shape") === "grouped";
    const perMessage = grouped ? ITEMS_PER_MESSAGE : 1;
    // Sent as the service's fan-out sends them: JSON text, 100 messages per sendBatch.
    const bodies: string[] = [];
    for (let start = 0; start < n; start += perMessage) {
      const items = Array.from({ length: Math.min(perMessage, n - start) }, (_, i) => item(start + i));
      bodies.push(JSON.stringify(grouped ? { ...batch, items } : { ...batch, ...items[0] }));
    }
    const queue = grouped ? env.GROUPED_QUEUE : env.QUEUE;
    for (let start = 0; start < bodies.length; start += 100) {
      await queue.sendBatch(bodies.slice(start, start + 100).map((body) => ({ body, contentType: "text" })));
    }
    return new Response(null, { status: 202 });
  },
  async queue(batch, env) {
    batch.ackAll();
    // No body is read: every grouped message is full (n is a multiple of ITEMS_PER_MESSAGE).
    await counter(env).add(batch.messages.length * (batch.queue === "ceiling-grouped" ? ITEMS_PER_MESSAGE : 1));
  },
} satisfies ExportedHandler<CeilingEnv>;
