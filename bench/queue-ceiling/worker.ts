// The platform's ceiling for `npm run bench:e2e`: the same local queue settings
// as the service, with a consumer that does nothing but count what it receives.
import { DurableObject } from "cloudflare:workers";

interface CeilingEnv {
  QUEUE: Queue;
  COUNTER: DurableObjectNamespace<Counter>;
}

export class Counter extends DurableObject {
  #count = 0;
  /** When the last messages were counted (epoch ms): the benchmark's end time, free of its polling step. */
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

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/count") return Response.json(await counter(env).count());
    if (url.pathname !== "/produce") return new Response("not found", { status: 404 });
    const n = Number(url.searchParams.get("n"));
    // Messages shaped and sized like the service's item messages, sent as its fan-out sends them.
    for (let start = 0; start < n; start += 100) {
      const chunk = Array.from({ length: Math.min(100, n - start) }, (_, i) => ({
        body: {
          batchId: "00000000-0000-4000-8000-000000000000",
          index: start + i,
          environment: "test",
          fields: ["email", "phone"],
          input: { firstName: `E2e${start + i}`, lastName: "Person", companyDomain: "e2e.example" },
        },
      }));
      await env.QUEUE.sendBatch(chunk);
    }
    return new Response(null, { status: 202 });
  },
  async queue(batch, env) {
    batch.ackAll();
    await counter(env).add(batch.messages.length);
  },
} satisfies ExportedHandler<CeilingEnv>;
