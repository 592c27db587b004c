import { backoff } from "../base/backoff";

// An alarm step that failed on another binding (the account, a queue, KV) is tried
// again after the one backoff of the code base, growing with the step's failures in
// a row. They are counted in memory: an object that restarted starts again from the
// base, as a retry after a restart should.
const stepBackoff = backoff({ baseSeconds: 5, maxSeconds: 300 });

export type RetriedStep =
  | "report"
  | "send_webhook"
  | "purge_cache"
  | "item_deliveries"
  | "publish_events"
  | "publish_item_events"
  | "expire";

const failuresInARow = new WeakMap<DurableObjectStorage, Map<RetriedStep, number>>();

/** Arms the alarm for the step's next try, after the backoff for its failures in a row. */
export async function retryStepLater(storage: DurableObjectStorage, step: RetriedStep): Promise<void> {
  const failures = failuresInARow.get(storage) ?? new Map<RetriedStep, number>();
  failuresInARow.set(storage, failures);
  const attempt = (failures.get(step) ?? 0) + 1;
  failures.set(step, attempt);
  await storage.setAlarm(Date.now() + stepBackoff(attempt) * 1000);
}

/** The step went through: its next failure waits the base again. */
export function stepSucceeded(storage: DurableObjectStorage, step: RetriedStep): void {
  failuresInARow.get(storage)?.delete(step);
}
