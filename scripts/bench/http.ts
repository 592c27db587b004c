// npm run bench: HTTP throughput of each route against a floor measured side by
// side in one run against `wrangler dev` on loopback: GET /healthz for the reads, and
// for the submit the submit floor (bench/submit-floor/: a new SQLite Durable Object,
// 100 rows in one transaction and an alarm per request), with the same body and settings.
import { mkdirSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { type ServerKey, seedKeys, startLocalServer } from "../../test/local-server";
import { barChart } from "./chart";
import { type HttpResult, machine, RESULTS, writeReport } from "./report";

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const items = Array.from({ length: 100 }, (_, i) => ({ firstName: `Bench${i}`, lastName: "Person", companyDomain: "bench.example" }));

const HEALTHZ = "floor: GET /healthz";
const SUBMIT_FLOOR = "floor: new DO, 100 rows, alarm";

async function main() {
  let key: ServerKey | undefined;
  const server = await startLocalServer({
    prepare: async (state) => {
      [key] = await seedKeys(state, [{ customerId: "cus_bench", environment: "test" }]);
    },
  });
  const floorServer = await startLocalServer({ config: "bench/submit-floor/wrangler.toml" }).catch(async (error) => {
    await server.stop();
    throw error;
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

    // Each route is compared with a floor measured before it (`against`, GET /healthz
    // unless named). The submit floor runs just before the submit, in the same
    // conditions; the submit goes last, as the batches it creates keep the queue busy.
    const submitBody = JSON.stringify({ items });
    const routes: { name: string; target?: number; against?: string; options: autocannon.Options }[] = [
      { name: HEALTHZ, options: { url: `${server.url}/healthz` } },
      {
        name: "GET status (completed, 100 items)",
        target: 0.6,
        options: { url: `${server.url}/v2/test/person/contact-info/${batchId}`, headers },
      },
      { name: "GET /me/rate-limits", target: 0.55, options: { url: `${server.url}/v2/test/me/rate-limits`, headers } },
      {
        name: SUBMIT_FLOOR,
        options: { url: `${floorServer.url}/submit`, method: "POST", headers: { "content-type": "application/json" }, body: submitBody },
      },
      {
        name: "POST submit (100 items)",
        target: 0.9,
        against: SUBMIT_FLOOR,
        options: { url: `${server.url}/v2/test/person/contact-info`, method: "POST", headers, body: submitBody },
      },
    ];
    const results: HttpResult[] = [];
    for (const route of routes) {
      const run = await autocannon({ ...route.options, connections: CONNECTIONS, duration: DURATION_SECONDS });
      const against = route.name === HEALTHZ ? HEALTHZ : (route.against ?? HEALTHZ);
      const floor = results.find((r) => r.name === against)?.requestsPerSecond ?? run.requests.average;
      results.push({
        name: route.name,
        requestsPerSecond: run.requests.average,
        p50: run.latency.p50,
        p99: run.latency.p99,
        non2xx: run.non2xx,
        errors: run.errors,
        ratio: run.requests.average / floor,
        against,
        ...(route.target === undefined ? {} : { target: route.target }),
      });
      const r = results[results.length - 1]!;
      console.log(
        `${r.name.padEnd(36)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  ${r.ratio.toFixed(2)}× ${r.against === HEALTHZ ? "/healthz" : "submit floor"}${r.target ? ` (target ${r.target})` : ""}  non-2xx ${r.non2xx}  errors ${r.errors}`,
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
        "Requests per second, against their floors",
        results.map((r) => ({
          label: r.name,
          value: r.requestsPerSecond,
          note: r.name === HEALTHZ ? undefined : `${r.ratio.toFixed(2)}× ${r.against === HEALTHZ ? "/healthz" : "submit floor"}`,
        })),
        "req/s",
        [
          { at: results[0]!.requestsPerSecond * 0.6, label: "0.6× /healthz" },
          ...results.filter((r) => r.name === SUBMIT_FLOOR).map((r) => ({ at: r.requestsPerSecond * 0.9, label: "0.9× submit floor" })),
        ],
      ),
    );
    writeReport();
  } finally {
    await Promise.all([server.stop(), floorServer.stop()]);
  }
}

await main();
