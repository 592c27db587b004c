import type { Config } from "../base/config";
import type { ItemDeferral, ItemOutcome } from "../contact-info/batch-contract";
import type { Contacts } from "../contact-info/contact";
import { itemErrors } from "../contact-info/item-errors";
import type { Resolution } from "../enrichment/enricher";
import type { UndeliverableScreen } from "../privacy/do-not-deliver";
import { MAX_RETRY_AFTER_SECONDS, queueRetryDelaySeconds } from "./retry";

// What becomes of one batch's group of messages once its items were tried: a pure plan, so the
// consumer (consumer.ts) is only I/O and every rule here is tested without a queue.

/** What one item's attempt came to: a resolution, or an error of ours (`crashed`). */
export type ItemAttempt = { index: number; attempt: number } & (
  | { kind: "resolved"; resolution: Resolution }
  | { kind: "crashed" }
);

/** A message of the group, with what its items' attempts came to (suppressed items have none). */
export interface TriedMessage<M> {
  message: M;
  /** The queue's count of deliveries: what the backoff grows with. */
  deliveries: number;
  /** Every item the message carries (recorded or not), by index. */
  indexes: readonly number[];
  attempts: readonly ItemAttempt[];
}

/**
 * What to do with a message: ack it, or have it back after `delaySeconds`; `retryAfterSeconds` is the
 * longest wait its items' sources asked for, `held` whether only our governor held it back.
 */
type MessageAction =
  | { kind: "ack" }
  | { kind: "retry"; delaySeconds: number; retryAfterSeconds: number; held: boolean };

export interface GroupPlan<M> {
  /** The outcomes to record: the suppressed items', then those the attempts decided. */
  outcomes: ItemOutcome[];
  /** Items whose message comes back: when they are due, with what their attempt found meanwhile. */
  deferrals: ItemDeferral[];
  actions: Map<M, MessageAction>;
  /** Per "source:outcome", how many times, for the log. */
  providerCounts: Record<string, number>;
}

/**
 * Plans a group: each resolved item is recorded or deferred; an error of ours is retried until
 * ITEM_MAX_ATTEMPTS, then fails the item `processing_failed` (so only a crashed consumer's
 * messages reach the dead-letter queue). A message with an item to retry waits its backoff, or
 * the longest Retry-After its items' sources asked for (at most MAX_RETRY_AFTER_SECONDS); one
 * whose items only our rate governor held back waits just the time it named, its attempt not
 * counted (no vendor failed: a backoff's 30 s would idle a vendor free again in 1 s).
 */
export function planGroup<M>(
  messages: readonly TriedMessage<M>[],
  suppressed: readonly ItemOutcome[],
  config: Pick<Config, "itemMaxAttempts" | "retryBaseDelaySeconds" | "retryMaxDelaySeconds">,
  now: number,
  random: () => number = Math.random,
): GroupPlan<M> {
  const outcomes = [...suppressed];
  const providerCounts: Record<string, number> = {};
  // Per message with an item to retry: the longest wait its items' sources asked for, whether the
  // attempt counts (anything but our governor's hold), and what its items found meanwhile.
  const retries = new Map<
    TriedMessage<M>,
    { retryAfterSeconds: number; counted: boolean; found: Map<number, Contacts> }
  >();
  const retry = (tried: TriedMessage<M>, retryAfterSeconds: number, counted: boolean) => {
    const entry = retries.get(tried) ?? { retryAfterSeconds: 0, counted: false, found: new Map() };
    entry.retryAfterSeconds = Math.max(entry.retryAfterSeconds, retryAfterSeconds);
    entry.counted ||= counted;
    retries.set(tried, entry);
    return entry;
  };
  for (const tried of messages) {
    for (const item of tried.attempts) {
      if (item.kind === "crashed") {
        if (item.attempt >= config.itemMaxAttempts) {
          outcomes.push({ index: item.index, status: "failed", error: itemErrors.everyAttemptFailed, sources: [] });
        } else retry(tried, 0, true);
        continue;
      }
      const { resolution } = item;
      for (const { name, outcome } of resolution.reports) {
        providerCounts[`${name}:${outcome}`] = (providerCounts[`${name}:${outcome}`] ?? 0) + 1;
      }
      if (resolution.kind === "record")
        outcomes.push({ index: item.index, ...resolution.result, calls: resolution.calls });
      else retry(tried, resolution.retryAfterSeconds ?? 0, !resolution.held).found.set(item.index, resolution.found);
    }
  }
  const recorded = new Set(outcomes.map(({ index }) => index));
  const deferrals: ItemDeferral[] = [];
  const actions = new Map<M, MessageAction>();
  for (const tried of messages) {
    const entry = retries.get(tried);
    if (entry === undefined) {
      actions.set(tried.message, { kind: "ack" });
      continue;
    }
    const { retryAfterSeconds, counted, found } = entry;
    const delaySeconds =
      !counted && retryAfterSeconds > 0
        ? Math.min(MAX_RETRY_AFTER_SECONDS, retryAfterSeconds)
        : queueRetryDelaySeconds(tried.deliveries, config, retryAfterSeconds, random);
    actions.set(tried.message, { kind: "retry", delaySeconds, retryAfterSeconds, held: !counted });
    // Its unrecorded items are due when its wait ends, and the batch is told so, so its re-drive
    // never takes a long wait (a source's Retry-After) for a lost message.
    const dueAt = new Date(now + delaySeconds * 1000).toISOString();
    for (const index of tried.indexes)
      if (!recorded.has(index)) deferrals.push({ index, dueAt, found: found.get(index) });
  }
  return { outcomes, deferrals, actions, providerCounts };
}

/** Every resolution the group's attempts came to. */
export const resolutionsOf = <M>(tried: readonly TriedMessage<M>[]): Resolution[] =>
  tried.flatMap(({ attempts }) =>
    attempts.flatMap((attempt) => (attempt.kind === "resolved" ? [attempt.resolution] : [])),
  );

/** The group with each resolution passed through the do-not-deliver list's screen (privacy/do-not-deliver.ts). */
export function screenResolutions<M>(
  tried: readonly TriedMessage<M>[],
  screen: UndeliverableScreen,
): TriedMessage<M>[] {
  return tried.map((message) => ({
    ...message,
    attempts: message.attempts.map(
      (attempt): ItemAttempt =>
        attempt.kind === "resolved" ? { ...attempt, resolution: screen(attempt.resolution) } : attempt,
    ),
  }));
}
