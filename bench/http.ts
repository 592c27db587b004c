// npm run bench: HTTP throughput of each route against a floor measured side by
// side in one run on loopback (the Worker served by bench/serve.ts): GET /healthz for the reads, and
// for the submit the submit floor (bench/floors/: a new SQLite Durable Object,
// 100 rows in one transaction and an alarm per request), with the same body and settings.
// The submit is also shown against a second floor that sends the batch's 100 items
// (in 10 messages, as the service does) and calls one more object as well, and the status read against a floor that makes its
// two calls (one counting with an INSERT, one reading a row and a page as large as the
// status page) and answers that page, so what is left of each gap is the service's own code.
// This machine's speed drifts by a fifth within minutes, so the routes are measured in
// ROUNDS interleaved rounds, each ratio against its floor in the same round, and the
// median round is reported with the range.
import autocannon from "autocannon";
import { createClient } from "../client/src/index";
import { type ServerKey, seedKeys, startLocalServer } from "../scripts/local-server";
import { barChart } from "./chart";
import { untilQuiet } from "./quiet";
import { DEV_TOOLING, flushDisk, type HttpResult, machine, median, RESULTS, writeReport } from "./report";
import { sized, writeResult } from "./smoke";

const DURATION_SECONDS = sized(Number(process.env.BENCH_SECONDS ?? 5), 1);
const CONNECTIONS = sized(Number(process.env.BENCH_CONNECTIONS ?? 10), 2);
const ROUNDS = sized(Number(process.env.BENCH_ROUNDS ?? 5), 1);
// Rest between rounds. Right after a submit run (hundreds of new batch objects) the status read ran
// slower, though the queue was drained and the disk synced: 0.45-0.54 of /healthz with no rest,
// 0.52-0.56 with 40 s of it, in two runs of the same code (bench/NOTES.md); cause not isolated.
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 40);

const items = Array.from({ length: 100 }, (_, i) => ({
  firstName: `Bench${i}`,
  lastName: "Person",
  companyDomain: "bench.example",
}));

const HEALTHZ = "floor: GET /healthz";
const READ_FLOOR = "floor: 2 DO calls, 1 INSERT, same body";
const SUBMIT_FLOOR = "floor: new DO, 100 rows, alarm";
const SUBMIT_FLOOR_SENDING = "floor: + 100 items sent, 1 more DO";
const SUBMIT = "POST submit (100 items)";

async function main() {
  let key: ServerKey | undefined;
  const server = await startLocalServer({
    devTooling: DEV_TOOLING,
    prepare: async (state) => {
      [key] = await seedKeys(state, [{ customerId: "cus_bench", environment: "test" }]);
    },
  });
  const floorServer = await startLocalServer({ config: "bench/floors/wrangler.toml", devTooling: DEV_TOOLING }).catch(
    async (error) => {
      await server.stop();
      throw error;
    },
  );
  try {
    // Setting up goes through the typed client; the measured requests are autocannon's own.
    const headers = { "x-api-key": key!.key, "content-type": "application/json" };
    const client = createClient({ baseUrl: server.url, apiKey: key!.key, environment: "test" });
    const untilCompleted = (id: string) =>
      client.waitForBatch(id, { intervalMs: 200, signal: AbortSignal.timeout(300_000) });
    const { batchId } = await client.submit(items);
    await untilCompleted(batchId);
    // The read floor answers with as many bytes as the status page, as carrying them costs the platform too.
    const statusUrl = `${server.url}/v2/test/person/contact-info/${batchId}`;
    const pageBytes = (await (await fetch(statusUrl, { headers })).arrayBuffer()).byteLength;

    // Each route is compared with a floor measured before it in the same round (`against`,
    // GET /healthz unless named). The submit floors run just before the submit, in the same
    // conditions; the submit goes last, as the batches it creates keep the queue busy until drained.
    // Every run starts once both servers have been idle for a while (untilQuiet: what a run
    // leaves behind, and why it mattered to the submit, is told there).
    const submitBody = JSON.stringify({ items });
    const routes: {
      name: string;
      target?: number;
      against?: string;
      alsoAgainst?: string;
      options: autocannon.Options;
    }[] = [
      { name: HEALTHZ, options: { url: `${server.url}/healthz` } },
      { name: READ_FLOOR, options: { url: `${floorServer.url}/read?bytes=${pageBytes}` } },
      {
        name: "GET status (completed, 100 items)",
        target: 0.6,
        alsoAgainst: READ_FLOOR,
        options: { url: statusUrl, headers },
      },
      { name: "GET /me/rate-limits", target: 0.55, options: { url: `${server.url}/v2/test/me/rate-limits`, headers } },
      {
        name: SUBMIT_FLOOR,
        options: {
          url: `${floorServer.url}/submit`,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: submitBody,
        },
      },
      {
        name: SUBMIT_FLOOR_SENDING,
        against: SUBMIT_FLOOR,
        options: {
          url: `${floorServer.url}/submit-and-send`,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: submitBody,
        },
      },
      {
        name: SUBMIT,
        // Issue 28 restated the target against the floor that also sends (0.9 of the bare floor was out of
        // reach by the architecture: the sending floor itself reads 0.84 of it); the bare floor is still shown.
        target: 0.6,
        against: SUBMIT_FLOOR_SENDING,
        alsoAgainst: SUBMIT_FLOOR,
        options: { url: `${server.url}/v2/test/person/contact-info`, method: "POST", headers, body: submitBody },
      },
    ];
    // Until a batch submitted now completes: the batches a submit run left are processed
    // (the local queue delivers in order), so the next round's floors run on a quiet machine.
    const drain = async () => {
      await untilCompleted((await client.submit(items.slice(0, 1))).batchId);
    };
    const rounds: Map<string, autocannon.Result>[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const runs = new Map<string, autocannon.Result>();
      for (const route of routes) {
        const waitedMs = await untilQuiet([server, floorServer]);
        const run = await autocannon({ ...route.options, connections: CONNECTIONS, duration: DURATION_SECONDS });
        runs.set(route.name, run);
        console.log(
          `round ${round}: ${route.name.padEnd(36)} ${run.requests.average.toFixed(0).padStart(6)} req/s  non-2xx ${run.non2xx}  errors ${run.errors}  (after ${waitedMs} ms for quiet)`,
        );
      }
      rounds.push(runs);
      await drain();
      flushDisk();
      if (round < ROUNDS) await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
    }
    const result = (
      route: (typeof routes)[number],
      against: string,
      target: number | undefined,
    ): HttpResult & { ratios: number[] } => {
      const ratios = rounds.map((runs) => runs.get(route.name)!.requests.average / runs.get(against)!.requests.average);
      // The round whose ratio is the median (for a floor, whose requests/s is): its own figures are shown.
      const perSecond = rounds.map((runs) => runs.get(route.name)!.requests.average);
      const pick = against === route.name ? perSecond.indexOf(median(perSecond)) : ratios.indexOf(median(ratios));
      // A floor that answered nothing in a round (a smoke's one-second run on a loaded machine) gives ratios
      // of NaN, which no index holds: that round's figures are shown as they are.
      const middle = rounds[Math.max(pick, 0)]!.get(route.name)!;
      return {
        name: route.name,
        requestsPerSecond: middle.requests.average,
        p50: middle.latency.p50,
        p99: middle.latency.p99,
        non2xx: rounds.reduce((sum, runs) => sum + runs.get(route.name)!.non2xx, 0),
        errors: rounds.reduce((sum, runs) => sum + runs.get(route.name)!.errors, 0),
        ratio: median(ratios),
        ratios,
        against,
        ...(target === undefined ? {} : { target }),
      };
    };
    // Each route against its floor; a route with a second floor (`alsoAgainst`) once more, without a target.
    const results = routes.flatMap((route) => [
      result(route, route.name === HEALTHZ ? HEALTHZ : (route.against ?? HEALTHZ), route.target),
      ...(route.alsoAgainst ? [result(route, route.alsoAgainst, undefined)] : []),
    ]);
    for (const r of results) {
      console.log(
        `${r.name.padEnd(36)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  ${r.ratio.toFixed(2)}× ${r.against} (rounds ${r.ratios.map((x) => x.toFixed(2)).join(", ")})${r.target ? ` target ${r.target}` : ""}`,
      );
    }
    writeResult(
      RESULTS.http,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: machine(),
          durationSeconds: DURATION_SECONDS,
          connections: CONNECTIONS,
          rounds: ROUNDS,
          results,
        },
        null,
        2,
      ),
    );
    writeResult(
      "bench/results/http.svg",
      barChart(
        "Requests per second, against their floors",
        // One bar per route: a route's ratio to its second floor is in the table.
        results
          .filter((r) => !routes.some((route) => route.name === r.name && route.alsoAgainst === r.against))
          .map((r) => ({
            label: r.name,
            value: r.requestsPerSecond,
            note:
              r.name === HEALTHZ
                ? undefined
                : `${r.ratio.toFixed(2)}× ${r.against === HEALTHZ ? "/healthz" : r.against}`,
          })),
        "req/s",
        [
          { at: results[0]!.requestsPerSecond * 0.6, label: "0.6× /healthz" },
          ...results
            .filter((r) => r.name === SUBMIT_FLOOR_SENDING)
            .map((r) => ({ at: r.requestsPerSecond * 0.6, label: "0.6× the submit floor that sends" })),
        ],
      ),
    );
    writeReport();
  } finally {
    await Promise.all([server.stop(), floorServer.stop()]);
  }
}

await main();
