// The two other modes of `npm run bench:e2e` (issue 28 item 3), on `test` batches like the rest of it:
// - `--mode fairness`: a 1-item batch's completion time alone, and while another customer's
//   BATCHES × ITEMS items are processing (submitted just before it); target ≤ 3× alone.
// - `--mode cold`: ITEMS items started cold (after the servers were idle for 5 s) against the same
//   started back to back (right after the cold one completed); target ≥ 0.9 of the rate.
// Sizes: --items (default 10,000), --batches (default 3), --rounds (default 5); the median round
// is reported, with every round's ratio, in bench/results/fairness.json or cold.json.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { type ServerKey, seedKeys, startLocalServer } from "../scripts/local-server";
import { batchBody, followBatch, submitAndFollow, submitBatch } from "./batch-stream";
import { untilQuiet } from "./quiet";
import { DEV_TOOLING, flushDisk, machine, median, RESULTS } from "./report";

const TIMEOUT_MS = 30 * 60_000;

export async function runMode(
  mode: "fairness" | "cold",
  sizes: { items: number; batches: number; rounds: number },
): Promise<void> {
  let keys: ServerKey[] = [];
  const server = await startLocalServer({
    devTooling: DEV_TOOLING,
    prepare: async (state) => {
      keys = await seedKeys(state, [
        { customerId: "cus_bench_small", environment: "test" },
        { customerId: "cus_bench_large", environment: "test" },
      ]);
    },
    vars: { MAX_BATCH_ITEMS: String(Math.max(sizes.items, 10)), MAX_BODY_BYTES: String(64 * 1024 * 1024) },
  });
  const [small, large] = keys as [ServerKey, ServerKey];
  const loadAtStart = Number(loadavg()[0]?.toFixed(1));
  let tag = 0;
  const follow = (key: ServerKey, size: number) =>
    submitAndFollow(server.url, key, batchBody(tag++, size), { timeoutMs: TIMEOUT_MS, withItems: false });
  const rounds: { first: number; second: number; ratio: number }[] = [];
  try {
    await follow(small, 10);
    await follow(large, 10);
    for (let round = 1; round <= sizes.rounds; round++) {
      flushDisk();
      await untilQuiet([server]);
      if (mode === "fairness") {
        const alone = (await follow(small, 1)).completeMs;
        flushDisk();
        await untilQuiet([server]);
        // The large customer's batches accepted first, then the 1-item batch, followed to its end.
        const large202 = await Promise.all(
          Array.from({ length: sizes.batches }, () => submitBatch(server.url, large, batchBody(tag++, sizes.items))),
        );
        const during = (await follow(small, 1)).completeMs;
        rounds.push({ first: alone, second: during, ratio: during / alone });
        // The large batches end before the next round starts.
        await Promise.all(
          large202.map((batch) => followBatch(server.url, large, batch, { timeoutMs: TIMEOUT_MS, withItems: false })),
        );
        console.log(
          `round ${round}: 1 item alone ${alone} ms, beside ${sizes.batches} × ${sizes.items} ${during} ms: ${(during / alone).toFixed(2)}×`,
        );
      } else {
        const cold = await follow(large, sizes.items);
        flushDisk();
        const warm = await follow(large, sizes.items);
        // Items/s cold over items/s back to back: the inverse ratio of the times.
        rounds.push({ first: cold.completeMs, second: warm.completeMs, ratio: warm.completeMs / cold.completeMs });
        console.log(
          `round ${round}: ${sizes.items} items cold ${cold.completeMs} ms, back to back ${warm.completeMs} ms: ${(warm.completeMs / cold.completeMs).toFixed(2)}`,
        );
      }
    }
  } finally {
    await server.stop();
  }
  const ratios = rounds.map((r) => r.ratio);
  const middle = rounds[ratios.indexOf(median(ratios))]!;
  const names =
    mode === "fairness" ? { first: "aloneMs", second: "besideMs" } : { first: "coldMs", second: "backToBackMs" };
  writeFileSync(
    RESULTS[mode],
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: machine(),
        loadAverage: { atStart: loadAtStart, atEnd: Number(loadavg()[0]?.toFixed(1)) },
        ...sizes,
        [names.first]: middle.first,
        [names.second]: middle.second,
        ratio: middle.ratio,
        everyRound: ratios,
      },
      null,
      2,
    )}\n`,
  );
}
