import type { Config } from "../base/config";
import type { WebhookState } from "../contact-info/batch-views";

// What the batch's alarm does next, decided from the batch row alone. The
// object reads the facts, takes the step, and asks again until the answer is to
// wait. Re-drive resends work whose queue message went missing (a consumer that
// died past max_retries, a platform incident, a local restart).

/** Times one item may be put on the queue: the fan-out, then at most two re-drives. */
export const MAX_ITEM_ENQUEUES = 3;
/** Times the batch.completed webhook may be put on the queue, likewise. */
export const MAX_WEBHOOK_ENQUEUES = 3;

/** The facts of the batch row the plan reads; ISO 8601 times as stored. */
export type StepFacts = {
  created_at: string;
  completed_at: string | null;
  expired_at: string | null;
  /** Set when the caller deleted the batch: nothing more happens to it but the report of its deletion. */
  deleted_at: string | null;
  /** Outbox rows (usage, registration, deletion) the account has not acknowledged yet, plus 1 while a completed batch has items left to index (privacy/storage/person-index-chunks.ts). */
  unreported: number;
  /** 1 while result-cache keys of a deleted batch's people are left to delete (cache_purge), else 0. */
  cache_purge_left: number;
  total_items: number;
  next_enqueue_index: number;
  /** Pending items below next_enqueue_index: sent and not yet recorded (0 once the fan-out is done). */
  in_flight: number;
  /** The earliest due time of a pending item sent to the queue: when it was sent, or when a retry of it is due. */
  oldest_pending_due: string | null;
  webhook_state: WebhookState | null;
  webhook_attempts: number;
  webhook_enqueues: number;
  webhook_queued_at: string | null;
  webhook_attempted_at: string | null;
  /** 1 while item.completed deliveries wait to be put on their queue the first time, else 0. */
  item_webhooks_unsent: number;
  /** The oldest last activity (queued, or attempted) of an item.completed delivery still `queued`. */
  item_webhooks_idle_since: string | null;
  /** 1 while item.completed events wait to go to the customer's webhook endpoints (their WebhookHub), else 0. */
  item_events_unpublished: number;
  /** 0 until the completed batch's batch.completed event went to the customer's webhook endpoints (their WebhookHub). */
  events_published: number;
};

export type StepConfig = Pick<
  Config,
  "batchDeadlineSeconds" | "redriveAfterSeconds" | "retentionSeconds" | "webhookMaxAttempts" | "fanOutWindowItems"
>;

export type Step =
  /** Nothing more, ever: the batch expired or was deleted. */
  | { kind: "none" }
  /** Send the outbox to the customer's account: first, so the batch list and usage stay current. */
  | { kind: "report" }
  /** Delete a deleted batch's people from the result cache, a bounded chunk at a time. */
  | { kind: "purge_cache" }
  /** Enqueue items not yet sent, up to the window. */
  | { kind: "fan_out" }
  /** Resend pending items whose message was lost. */
  | { kind: "redrive" }
  /** The deadline passed: fail the items still pending. */
  | { kind: "time_out_items" }
  /** Put the webhook on its queue: the first time, or again when its message was lost. */
  | { kind: "send_webhook" }
  /** A lost webhook used its attempts or enqueues. */
  | { kind: "fail_webhook" }
  /** Hand batch.completed to the customer's webhook endpoints (their WebhookHub delivers and retries it). */
  | { kind: "publish_events" }
  /** Hand item.completed events to the customer's webhook endpoints (their WebhookHub), a bounded number at a time. */
  | { kind: "publish_item_events" }
  /** Put item.completed deliveries on the webhook queue: new ones, and lost ones again (or fail them). */
  | { kind: "send_item_webhooks" }
  /** Retention ended: delete the items. */
  | { kind: "expire" }
  | { kind: "wait_until"; at: number };

export function nextStep(row: StepFacts, now: number, config: StepConfig): Step {
  if (row.unreported > 0) return { kind: "report" };
  if (row.cache_purge_left > 0) return { kind: "purge_cache" };
  if (row.expired_at !== null || row.deleted_at !== null) return { kind: "none" };
  if (row.item_events_unpublished > 0) return { kind: "publish_item_events" };
  const itemWebhooks = itemWebhooksDue(row, config);
  if (itemWebhooks !== null && now >= itemWebhooks) return { kind: "send_item_webhooks" };
  return row.completed_at === null
    ? openBatchStep(row, now, config, itemWebhooks)
    : completedBatchStep(row, row.completed_at, now, config, itemWebhooks);
}

/**
 * When item.completed deliveries need the alarm: now, for any never put on the queue;
 * else when the longest idle of those `queued` reaches the re-drive time (as for
 * batch.completed); null when none does.
 */
function itemWebhooksDue(row: StepFacts, config: StepConfig): number | null {
  if (row.item_webhooks_unsent > 0) return 0;
  const idle = millis(row.item_webhooks_idle_since);
  return idle === null ? null : idle + config.redriveAfterSeconds * 1000;
}

/**
 * Top up the fan-out when half its window is free; fail what is left at the
 * deadline; re-drive when the oldest pending item is overdue. While the window is
 * full the batch waits: recording items re-arms it (`fanOutDue`).
 */
function openBatchStep(row: StepFacts, now: number, config: StepConfig, itemWebhooks: number | null): Step {
  if (fanOutDue(row, config)) return { kind: "fan_out" };
  const deadline = Date.parse(row.created_at) + config.batchDeadlineSeconds * 1000;
  if (now >= deadline) return { kind: "time_out_items" };
  const oldest = millis(row.oldest_pending_due);
  const redrive = oldest === null ? null : oldest + config.redriveAfterSeconds * 1000;
  if (redrive !== null && now >= redrive) return { kind: "redrive" };
  return { kind: "wait_until", at: earliest(deadline, redrive, itemWebhooks) };
}

/**
 * Fairness: a batch keeps at most `fanOutWindowItems` items on the queue, and sends
 * more once half the window has been recorded, so sends stay large (a full
 * sendBatch at the default window) and the queue never runs dry between them.
 */
export function fanOutDue(
  row: Pick<StepFacts, "next_enqueue_index" | "total_items" | "in_flight">,
  config: Pick<StepConfig, "fanOutWindowItems">,
): boolean {
  return row.next_enqueue_index < row.total_items && row.in_flight <= config.fanOutWindowItems / 2;
}

/** How many more items the fan-out may send now. */
export const fanOutRoom = (inFlight: number, config: Pick<StepConfig, "fanOutWindowItems">): number =>
  Math.max(0, config.fanOutWindowItems - inFlight);

/**
 * The webhook first: hand it over once, then resend it if it sits `queued` with
 * no activity longer than the longest backoff between attempts (its message
 * was lost) while attempts and enqueues are left, else fail it. Then expire
 * when retention ends.
 */
function completedBatchStep(
  row: StepFacts,
  completedAt: string,
  now: number,
  config: StepConfig,
  itemWebhooks: number | null,
): Step {
  if (row.webhook_state === "pending") return { kind: "send_webhook" };
  if (row.events_published === 0) return { kind: "publish_events" };
  let webhookDue: number | null = null;
  if (row.webhook_state === "queued") {
    webhookDue =
      (latest(millis(row.webhook_queued_at), millis(row.webhook_attempted_at)) ?? 0) +
      config.redriveAfterSeconds * 1000;
    if (now >= webhookDue) {
      const left = row.webhook_attempts < config.webhookMaxAttempts && row.webhook_enqueues < MAX_WEBHOOK_ENQUEUES;
      return { kind: left ? "send_webhook" : "fail_webhook" };
    }
  }
  const end = retentionEnd(completedAt, config);
  if (now >= end) return { kind: "expire" };
  return { kind: "wait_until", at: earliest(end, webhookDue, itemWebhooks) };
}

/** When a completed batch's items are deleted. */
export function retentionEnd(completedAt: string, config: Pick<Config, "retentionSeconds">): number {
  return Date.parse(completedAt) + config.retentionSeconds * 1000;
}

/** Pending items due at or before this time are overdue: a re-drive resends them. */
export function redriveCutoff(now: number, redriveAfterSeconds: number): number {
  return now - redriveAfterSeconds * 1000;
}

/** A stuck item is resent while it has enqueues left; past the bound it fails. */
export function itemRedrive(enqueues: number): "resend" | "fail" {
  return enqueues < MAX_ITEM_ENQUEUES ? "resend" : "fail";
}

const millis = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));

function earliest(first: number, ...others: (number | null)[]): number {
  return Math.min(first, ...others.filter((time): time is number => time !== null));
}

function latest(...times: (number | null)[]): number | null {
  const known = times.filter((time): time is number => time !== null);
  return known.length === 0 ? null : Math.max(...known);
}
