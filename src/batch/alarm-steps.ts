import { type Config, readConfig } from "../base/config";
import { log, logError } from "../base/log";
import { itemErrors } from "../contact-info/item-errors";
import { purgeStep } from "../privacy/storage/cache-purge";
import { noteSizeForScrub } from "../privacy/storage/high-water";
import { expireItems } from "../privacy/storage/retention";
import type { BatchParts } from "./batch-parts";
import { type BatchRow, requireBatchRow } from "./batch-row";
import { publishEvents } from "./events/endpoint-events";
import { publishItemEvents } from "./events/endpoint-item-events";
import { sendItemDeliveries } from "./events/item-deliveries";
import { batchHub } from "./events/webhook-hub-stub";
import { failWebhook, sendWebhook } from "./events/webhook-state";
import { enqueueing, type FanOutTarget, fanOut, redrive } from "./fan-out";
import { timedOutItems } from "./item-store";
import { fanOutRoom, nextStep, type Step } from "./next-step";
import { reportStep } from "./record/outbox";
import { recordOutcomes } from "./record/record-outcomes";
import { retryStepLater, stepSucceeded } from "./step-retry";

// Steps one alarm run takes at most; then it re-arms to go on, so a run stays short.
const MAX_STEPS_PER_ALARM = 8;

/**
 * Takes the steps `nextStep` plans, in turn, until one is to wait: then the alarm is
 * armed for it. `readRow`: the batch row, if the batch exists; `noRow`: what to do
 * when it does not (staged chunks whose `create` never came).
 */
export async function advance(
  parts: BatchParts,
  readRow: () => BatchRow | undefined,
  noRow: () => Promise<void>,
): Promise<void> {
  const { env, storage } = parts;
  const config = readConfig(env);
  for (let turn = 0; turn < MAX_STEPS_PER_ALARM; turn++) {
    const row = readRow();
    if (!row) return noRow();
    const step = nextStep(row, Date.now(), config);
    if (step.kind === "none") return storage.deleteAlarm();
    if (step.kind === "wait_until") return storage.setAlarm(step.at);
    const done = await takeStep(parts, step, row, config);
    noteSizeForScrub(storage);
    if (!done) return;
  }
  await storage.setAlarm(Date.now());
}

/** Takes one step; false when it armed the alarm to go on later instead. */
async function takeStep(
  parts: BatchParts,
  step: Exclude<Step, { kind: "none" | "wait_until" }>,
  row: BatchRow,
  config: Config,
): Promise<boolean> {
  const { env, storage, sql } = parts;
  switch (step.kind) {
    case "report":
      return reportStep(env, storage, row);
    case "purge_cache":
      return purgeStep(storage, parts.cache, parts.cacheWrites, row.id);
    case "fan_out":
      return enqueueing(storage, row, () =>
        fanOut(fanOutTarget(parts, config), row, fanOutRoom(row.in_flight, config)),
      );
    case "redrive":
      return enqueueing(storage, row, () => redrive(fanOutTarget(parts, config), row, config.redriveAfterSeconds));
    case "time_out_items":
      return enqueueing(storage, row, () => timeOutItems(parts, row, config));
    case "send_webhook":
      return sendWebhook(env.WEBHOOK_QUEUE, storage, row);
    case "fail_webhook":
      return failWebhook(sql, row);
    case "publish_events":
      return publishEvents(env, storage, row);
    case "publish_item_events":
      return publishItemEvents(env, storage, row);
    case "send_item_webhooks":
      return sendItemDeliveries(env.WEBHOOK_QUEUE, storage, row, config);
    case "expire":
      return expire(parts, row);
  }
}

/** Where the fan-out sends, and how items it cannot send end (recorded like any other end). */
export function fanOutTarget(parts: BatchParts, config: Config): FanOutTarget {
  return {
    storage: parts.storage,
    queue: parts.env.ITEM_QUEUE,
    record: (outcomes) => recordOutcomes(parts, requireBatchRow(parts.sql), outcomes, config),
    isComplete: () => requireBatchRow(parts.sql).completed_at !== null,
  };
}

/** Recorded like any end, so what an item found before a wait still completes it. */
async function timeOutItems(parts: BatchParts, row: BatchRow, config: Config): Promise<boolean> {
  await recordOutcomes(parts, row, timedOutItems(parts.sql, itemErrors.deadlinePassed), config);
  return true;
}

/**
 * Retention ended: the hub's item.completed payloads of the batch go first (the account then drops the
 * batch from its person index, so no erasure would reach them afterwards), then the items.
 */
async function expire({ env, storage, pages, events }: BatchParts, row: BatchRow): Promise<boolean> {
  try {
    await batchHub(env, row).forgetBatch(row.id);
  } catch (error) {
    logError("webhook_publish_failed", error, { batchId: row.id });
    await retryStepLater(storage, "expire");
    return false;
  }
  stepSucceeded(storage, "expire");
  expireItems(storage);
  pages.clear();
  events.notify();
  log("batch_expired", { batchId: row.id, environment: row.environment, items: row.total_items });
  return true;
}
