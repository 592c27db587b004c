// What keeps test files apart in the one runtime they share (vitest.config.ts): after each
// test, every batch it submitted has completed and logged its last line (setup.ts).
import { takeSubmitted, untilSettled } from "./api-calls";
import { until } from "./until";

// A batch's last log line comes just after its completion becomes readable:
// batch_created for a batch complete at birth (every item invalid), else
// batch_completed. setup.ts waits for it, so no work outlives the test file.
const lastLineLogged = new Set<string>();

let watching = false;

/** Notes each batch's last log line; called by setup.ts before each test file (files share one runtime, see vitest.config.ts). */
export function watchBatchLogs(): void {
  if (watching) return;
  watching = true;
  const write = console.log.bind(console);
  console.log = (...args: unknown[]) => {
    const [line] = args;
    if (typeof line === "string" && /^\{"event":"batch_(created|completed)"/.test(line)) {
      const event = JSON.parse(line) as { event: string; batchId: string; items?: number; invalidItems?: number };
      if (event.event === "batch_completed" || event.items === event.invalidItems) lastLineLogged.add(event.batchId);
    }
    write(...args);
  };
}

/** Waits until every batch submitted since the last call has completed and logged its last line. */
export async function drainSubmittedBatches(timeoutMs = 60_000): Promise<void> {
  const pending = takeSubmitted();
  await Promise.all(
    pending.map(async ([batchId, key]) => {
      if ((await untilSettled(key, batchId, timeoutMs)) === null) return;
      await until(() => lastLineLogged.has(batchId), {
        what: `batch ${batchId}'s last log line`,
        timeoutMs: 5_000,
        intervalMs: 10,
      });
    }),
  );
}
