// The one import point of the workerd tests' helpers: the modules beside it, each with one
// job, and the few small helpers of their own below. Polling is until.ts; logs, log-capture.ts.
import { env } from "cloudflare:workers";
import { vi } from "vitest";

export {
  expectProblem,
  getStatus,
  readBatch,
  readPages,
  request,
  type StatusBody,
  submit,
  submitBatch,
  usageOf,
  waitForCompletion,
} from "./api-calls";
export { batchProgress, createStoredBatch, newBatch, untilAtRest, untilOutboxReported } from "./batch-objects";
export { person } from "./fixtures";
export { deliver, faultyItemQueue, itemMessage, sentItems, sentMessage, worker } from "./item-queue";
export { createKey } from "./test-keys";
export { until } from "./until";
export {
  createEndpoint,
  deliveryLog,
  hookCall,
  hookLimits,
  hubOfKey,
  receivedAt,
  receiverPath,
  sendTestEvent,
} from "./webhook-calls";

/**
 * The real bindings with some vars replaced, for one call. (Assigning onto
 * `Object.create(env)` would write through to the shared env and leak into
 * every later test.)
 */
export function envWith(overrides: Record<string, unknown>): Env {
  return new Proxy(env, {
    get: (target, key) => (key in overrides ? overrides[key as string] : Reflect.get(target, key)),
  });
}

/**
 * Sets the clock `ms` ahead of real time for the test and the Durable Objects
 * (they share its isolate). Only Date is faked, so polling still runs on real
 * timers; `vi.useRealTimers()` brings the clock back.
 */
export function setClockAhead(ms: number): void {
  vi.useRealTimers();
  const real = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(real + ms);
}
