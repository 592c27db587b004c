// npm run bench: HTTP throughput of each route against a floor (GET /healthz),
// measured side by side in one run against `wrangler dev` on loopback.
import { mkdirSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { type ServerKey, seedKeys, startLocalServer } from "../../test/local-server";
import { barChart } from "./chart";
import { type HttpResult, machine, RESULTS, writeReport } from "./report";

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const items = Array.from({ length: 100 }, (_, i) => ({ firstName: `Bench${i}`, lastName: "Person", companyDomain: "bench.example" }));

async function main() {
  let key: ServerKey | undefined;
  const server = await startLocalServer({
    prepare: async (state) => {
      [key] = await seedKeys(state, [{ customerId: "cus_bench", environment: "test" }]);
    },
  });
  try {
    const headers = { "x-api-key": key!.key, "content-type": "application/json" };
    const submitted = await fetch(`${server.url}/v2/test/person/contact-info`, {
      method: "POST",
      headers,
      body: JSON.stringify({ items }),
    });
    const { batchId } = (await submitted.json()) as { batchId: string };
    const deadline = Date.now() + 120_000;
    for (;;) {
      const page = (await (await fetch(`${server.url}/v2/test/person/contact-info/${batchId}?limit=1`, { headers })).json()) as {
        status: string;
      };
      if (page.status === "completed") break;
      if (Date.now() > deadline) throw new Error("the 100-item batch did not complete");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // The submit run goes last: the batches it creates keep the queue busy afterwards.
    const routes: { name: string; target?: number; options: autocannon.Options }[] = [
      { name: "floor: GET /healthz", options: { url: `${server.url}/healthz` } },
      {
        name: "GET status (completed, 100 items)",
        target: 0.5,
        options: { url: `${server.url}/v2/test/person/contact-info/${batchId}`, headers },
      },
      { name: "GET /me/rate-limits", options: { url: `${server.url}/v2/test/me/rate-limits`, headers } },
      {
        name: "POST submit (100 items)",
        target: 0.25,
        options: { url: `${server.url}/v2/test/person/contact-info`, method: "POST", headers, body: JSON.stringify({ items }) },
      },
    ];
    const results: HttpResult[] = [];
    for (const route of routes) {
      const run = await autocannon({ ...route.options, connections: CONNECTIONS, duration: DURATION_SECONDS });
      const floor = results[0]?.requestsPerSecond ?? run.requests.average;
      results.push({
        name: route.name,
        requestsPerSecond: run.requests.average,
        p50: run.latency.p50,
        p99: run.latency.p99,
        non2xx: run.non2xx,
        errors: run.errors,
        ratio: run.requests.average / floor,
        ...(route.target === undefined ? {} : { target: route.target }),
      });
      const r = results[results.length - 1]!;
      console.log(
        `${r.name.padEnd(36)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  ${r.ratio.toFixed(2)}× floor${r.target ? ` (target ${r.target})` : ""}  non-2xx ${r.non2xx}`,
      );
    }
    mkdirSync("benchmarks", { recursive: true });
    writeFileSync(
      RESULTS.http,
      JSON.stringify(
        { date: new Date().toISOString(), machine: machine(), durationSeconds: DURATION_SECONDS, connections: CONNECTIONS, results },
        null,
        2,
      ),
    );
    writeFileSync(
      "benchmarks/http.svg",
      barChart(
        "Requests per second, against the floor (GET /healthz)",
        results.map((r) => ({ label: r.name, value: r.requestsPerSecond, note: `${r.ratio.toFixed(2)}×` })),
        "req/s",
        [
          { at: results[0]!.requestsPerSecond * 0.5, label: "0.5× floor" },
          { at: results[0]!.requestsPerSecond * 0.25, label: "0.25×" },
        ],
      ),
    );
    writeReport();
  } finally {
    await server.stop();
  }
}

await main();
