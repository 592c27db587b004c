import { DurableObject } from "cloudflare:workers";
import * as z from "zod";
import { backoff } from "../base/backoff";
import { jurisdictionOfBatch } from "../base/batch-id";
import { type Config, readConfig } from "../base/config";
import { log, logError } from "../base/log";
import { objectNamed } from "../base/placement";
import { webhookHub } from "../batch/events/webhook-hub-stub";
import { batchStub } from "../batch/stub";
import { type CompletedBatch, type WebhookEvent, webhookEvent } from "../contact-info/webhook-event";
import { type CheckedAttempt, postChecked } from "./post-event";

/** The sender of batch `batchId`'s webhooks, beside its batch: one object per batch, so one receiver's slowness stays its own. */
export function webhookSender(env: Env, batchId: string) {
  return objectNamed(env.WEBHOOK_SENDERS, batchId, jurisdictionOfBatch(batchId));
}

const deliveryStateSchema = z.object({
  batchId: z.string(),
  attempts: z.number().int().nonnegative(),
  /** When the next attempt is due (epoch ms); absent: now. */
  dueAt: z.number().optional(),
});
type DeliveryState = z.infer<typeof deliveryStateSchema>;

// One key per delivery in progress: batch.completed's, and item.completed delivery n's.
const BATCH_COMPLETED_KEY = "delivery";
const ITEM_KEY_PREFIX = "item:";
const keyOf = (delivery: number | undefined) =>
  delivery === undefined ? BATCH_COMPLETED_KEY : `${ITEM_KEY_PREFIX}${delivery}`;
const deliveryOf = (key: string) =>
  key === BATCH_COMPLETED_KEY ? undefined : Number(key.slice(ITEM_KEY_PREFIX.length));

// Attempts one alarm run makes at most, side by side; the rest are made by the next run, at once.
const MAX_ATTEMPTS_PER_RUN = 10;

/**
 * Delivers one batch's events (batch.completed, and item.completed deliveries)
 * from its own alarm. The webhooks queue only hands deliveries over
 * (`deliverWebhooks`), so no queue consumer ever waits on a receiver: a receiver
 * that takes the whole WEBHOOK_TIMEOUT_MS delays no other customer's delivery,
 * here or on Cloudflare. A non-2xx answer, a redirect (never followed) or a
 * timeout is retried with the item backoff until WEBHOOK_MAX_ATTEMPTS; each
 * attempt is recorded on the batch, which says what is still to deliver. An
 * alarm that throws is retried by the platform; a sender that stops anyway is
 * re-driven by the batch, which resends a delivery left `queued` too long.
 */
export class WebhookSender extends DurableObject<Env> {
  /** Starts a delivery, or leaves one in progress alone: a resent hand-off never doubles attempts. */
  async start(batchId: string, delivery?: number): Promise<void> {
    const key = keyOf(delivery);
    if (!this.#state(key)) this.ctx.storage.kv.put(key, { batchId, attempts: 0 } satisfies DeliveryState);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > Date.now()) await this.ctx.storage.setAlarm(Date.now());
  }

  override async alarm(): Promise<void> {
    const config = readConfig(this.env);
    const now = Date.now();
    const due = this.#states()
      .filter(([, state]) => (state.dueAt ?? 0) <= now)
      .slice(0, MAX_ATTEMPTS_PER_RUN);
    const attempts = await Promise.allSettled(due.map(([key, state]) => this.#attempt(key, state, config)));
    const left = this.#states();
    if (left.length === 0) await this.ctx.storage.deleteAll();
    else await this.ctx.storage.setAlarm(Math.max(Date.now(), Math.min(...left.map(([, state]) => state.dueAt ?? 0))));
    // An attempt that threw (the batch unreachable) counted nothing: once the others are saved, the run
    // fails, and the platform retries it.
    const failure = attempts.find((attempt) => attempt.status === "rejected");
    if (failure) throw failure.reason;
  }

  async #attempt(key: string, state: DeliveryState, config: Config): Promise<void> {
    const batch = batchStub(this.env, state.batchId);
    const delivery = deliveryOf(key);
    const completed = delivery === undefined ? await batch.pendingWebhook() : null;
    const event = completed
      ? webhookEvent(completed)
      : delivery === undefined
        ? null
        : await batch.pendingItemDelivery(delivery);
    if (!event) {
      this.ctx.storage.kv.delete(key);
      return;
    }
    const attempt = state.attempts + 1;
    const attempted = await postChecked(
      this.env,
      event.environment,
      { ...event, secrets: [event.secret] },
      config.webhookTimeoutMs,
    );
    const status = attempted.statusCode;
    const delivered = status !== null && status >= 200 && status < 300;
    const refused = attempted.error === "destination_refused";
    const last = attempt >= config.webhookMaxAttempts || refused;
    const outcome = {
      status,
      state: delivered ? "delivered" : last ? "failed" : "queued",
      ...(attempted.refusal === undefined ? {} : { refused: attempted.refusal }),
    } as const;
    // Logged before the batch records it: whoever waits for the batch to show the attempt finds it in the log too.
    if (completed) await logInHub(this.env, completed, event, { ...attempted, at: Date.now() }, outcome.state);
    if (delivery === undefined) await batch.recordWebhookAttempt(outcome);
    else await batch.recordItemDeliveryAttempt(delivery, outcome);
    log("webhook_attempt", {
      batchId: state.batchId,
      ...(delivery === undefined ? {} : { delivery }),
      attempt,
      status,
      delivered,
      ...(attempted.error?.startsWith("destination_") ? { destination: attempted.error } : {}),
    });
    if (delivered || last) {
      this.ctx.storage.kv.delete(key);
      return;
    }
    const wait =
      backoff({ baseSeconds: config.retryBaseDelaySeconds, maxSeconds: config.retryMaxDelaySeconds })(attempt) * 1000;
    this.ctx.storage.kv.put(key, { ...state, attempts: attempt, dueAt: Date.now() + wait } satisfies DeliveryState);
  }

  #state(key: string): DeliveryState | null {
    const parsed = deliveryStateSchema.safeParse(this.ctx.storage.kv.get(key));
    return parsed.success ? parsed.data : null;
  }

  /** The deliveries in progress, as stored; a value no schema reads is dropped. */
  #states(): [string, DeliveryState][] {
    const states: [string, DeliveryState][] = [];
    for (const [key, value] of [...this.ctx.storage.kv.list()]) {
      const parsed = deliveryStateSchema.safeParse(value);
      if (parsed.success) states.push([key, parsed.data]);
      else this.ctx.storage.kv.delete(key);
    }
    return states;
  }
}

const LOGGED_STATUS = { queued: "pending", delivered: "succeeded", failed: "failed" } as const;

/**
 * Shows the attempt in the customer's delivery log. The log only reports: a hub out of reach loses the
 * attempt's line there (said in the Worker's log), never the delivery, which the batch records.
 */
async function logInHub(
  env: Env,
  completed: CompletedBatch,
  event: WebhookEvent,
  attempt: CheckedAttempt & { at: number },
  state: keyof typeof LOGGED_STATUS,
): Promise<void> {
  const batchId = completed.summary.id;
  const tenant = {
    customerId: completed.customerId,
    environment: completed.environment,
    jurisdiction: jurisdictionOfBatch(batchId),
  };
  try {
    await webhookHub(env, tenant).logOwnAttempt(event, attempt, LOGGED_STATUS[state]);
  } catch (error) {
    logError("webhook_log_failed", error, { batchId });
  }
}
