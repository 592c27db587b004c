import { DurableObject } from "cloudflare:workers";
import * as z from "zod";
import { backoff } from "../backoff";
import { batchStub } from "../batch/stub";
import { readConfig } from "../config";
import { webhookEvent } from "../contact-info/webhook-event";
import { log } from "../log";
import { postEvent } from "./post-event";

/** The sender of batch `batchId`'s webhook: one object per batch, so one receiver's slowness stays its own. */
export function webhookSender(env: Env, batchId: string) {
  return env.WEBHOOK_SENDERS.get(env.WEBHOOK_SENDERS.idFromName(batchId));
}

const deliveryStateSchema = z.object({ batchId: z.string(), attempts: z.number().int().nonnegative() });
type DeliveryState = z.infer<typeof deliveryStateSchema>;
const STATE_KEY = "delivery";

/**
 * Delivers one batch's batch.completed event from its own alarm. The webhooks
 * queue only hands deliveries over (`deliverWebhooks`), so no queue consumer
 * ever waits on a receiver: a receiver that takes the whole WEBHOOK_TIMEOUT_MS
 * delays no other customer's delivery, here or on Cloudflare. A non-2xx answer,
 * a redirect (never followed) or a timeout is retried with the item backoff
 * until WEBHOOK_MAX_ATTEMPTS; each attempt is recorded on the batch. An alarm
 * that throws is retried by the platform; a sender that stops anyway is re-driven
 * by the batch, which resends a webhook left `queued` too long.
 */
export class WebhookSender extends DurableObject<Env> {
  /** Starts delivery, or leaves one in progress alone: a resent hand-off never doubles attempts. */
  async start(batchId: string): Promise<void> {
    if (!this.#state()) this.ctx.storage.kv.put(STATE_KEY, { batchId, attempts: 0 } satisfies DeliveryState);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
  }

  override async alarm(): Promise<void> {
    const state = this.#state();
    if (!state) return;
    const config = readConfig(this.env);
    const batch = batchStub(this.env, state.batchId);
    const completed = await batch.pendingWebhook();
    if (!completed) return this.ctx.storage.deleteAll();
    const event = webhookEvent(completed);
    const attempt = state.attempts + 1;
    const status = await postEvent(event, config.webhookTimeoutMs);
    const delivered = status !== null && status >= 200 && status < 300;
    const last = attempt >= config.webhookMaxAttempts;
    await batch.recordWebhookAttempt({ status, state: delivered ? "delivered" : last ? "failed" : "queued" });
    log("webhook_attempt", { batchId: state.batchId, attempt, status, delivered });
    if (delivered || last) return this.ctx.storage.deleteAll();
    this.ctx.storage.kv.put(STATE_KEY, { ...state, attempts: attempt } satisfies DeliveryState);
    await this.ctx.storage.setAlarm(
      Date.now() + backoff({ baseSeconds: config.retryBaseDelaySeconds, maxSeconds: config.retryMaxDelaySeconds })(attempt) * 1000,
    );
  }

  #state(): DeliveryState | null {
    const parsed = deliveryStateSchema.safeParse(this.ctx.storage.kv.get(STATE_KEY));
    return parsed.success ? parsed.data : null;
  }
}
