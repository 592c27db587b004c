import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { retryStepLater, stepSucceeded } from "../../src/batch/step-retry";

// A batch object's storage, untouched by any batch (no row is ever written): only its alarm is used.
const storageOf = () => env.BATCHES.get(env.BATCHES.idFromName(`step-retry-${crypto.randomUUID()}`));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("an alarm step's retry after a failed call", () => {
  it("waits the backoff for its failures in a row, from 5 s doubling, and the base again after a success", async () => {
    vi.spyOn(Math, "random").mockReturnValue(1); // the jitter at its top: the exponential itself
    const waits = await runInDurableObject(storageOf(), async (_, state) => {
      const seen: number[] = [];
      const wait = async () => {
        const before = Date.now();
        await retryStepLater(state.storage, "report");
        seen.push(((await state.storage.getAlarm()) ?? 0) - before);
      };
      await wait();
      await wait();
      await wait();
      // Another step counts its own failures.
      await retryStepLater(state.storage, "purge_cache");
      seen.push(((await state.storage.getAlarm()) ?? 0) - Date.now());
      stepSucceeded(state.storage, "report");
      await wait();
      await state.storage.deleteAlarm();
      return seen;
    });
    expect(waits.map((ms) => Math.round(ms / 1000))).toEqual([5, 10, 20, 5, 5]);
  });
});
