import type { EventSnapshot } from "./event-log";

// What one subscriber of a batch's events is sent next: a pure decision over the log as
// read now (event-log.ts) and what this subscriber was sent before (event-streams.ts runs it).

/** progress events, at most one per this long: the ones in between are coalesced into the next. */
export const PROGRESS_INTERVAL_MS = 250;

/** Item events read from the log per step, so a long replay goes out in bounded pieces. */
export const ITEM_EVENTS_PER_STEP = 100;

// The pause after a full step of a replay before the next: one stream replays at most
// ITEM_EVENTS_PER_STEP per this long (400 events/s), so a customer's streams together (capped,
// rate-limit/stream-leases.ts) leave the runtime to others (bench/stream-fairness.ts measures it).
export const REPLAY_STEP_PAUSE_MS = 250;

export type StreamEvent = { id: number; event: "item" | "progress" | "completed"; data: string };

export interface SubscriberState {
  withItems: boolean;
  /** The last event number sent (or the client's Last-Event-ID; 0 from the start). */
  after: number;
  /** The event number of the last progress event sent; null before the first. */
  progressSeq: number | null;
  progressAt: number;
}

export type Next =
  /** The stream ends: `completed` was sent. */
  | { kind: "close" }
  /** More item events wait in the log: read again as soon as these are taken. */
  | { kind: "more" }
  /** Nothing more until the log changes (or, with `inMs`, until a coalesced progress event is due). */
  | { kind: "wait"; inMs?: number };

/**
 * Item events after `after` (with `?items=true`), then, once caught up with the log, a
 * progress event when the counters moved since the last one (at most every
 * PROGRESS_INTERVAL_MS; the first at once), or `completed` when the batch is: the
 * counters, then the stream ends. A progress or completed event carries the number of
 * the last event it counts, so a client resuming after it misses no item event.
 */
export function planEvents(
  state: SubscriberState,
  log: EventSnapshot,
  now: number,
): { events: StreamEvent[]; state: SubscriberState; next: Next } {
  const events: StreamEvent[] = [];
  let { after, progressSeq, progressAt } = state;
  if (state.withItems) {
    for (const item of log.items) events.push({ id: item.seq, event: "item", data: item.itemJson });
    after = log.items.at(-1)?.seq ?? after;
    if (after < log.seq) return { events, state: { ...state, after }, next: { kind: "more" } };
  } else {
    after = log.seq;
  }
  const counters = JSON.stringify(log.summary);
  if (log.summary.status === "completed") {
    events.push({ id: log.seq, event: "completed", data: counters });
    return { events, state: { ...state, after }, next: { kind: "close" } };
  }
  if (progressSeq === log.seq) return { events, state: { ...state, after }, next: { kind: "wait" } };
  const dueIn = progressSeq === null ? 0 : progressAt + PROGRESS_INTERVAL_MS - now;
  if (dueIn > 0) return { events, state: { ...state, after }, next: { kind: "wait", inMs: dueIn } };
  events.push({ id: log.seq, event: "progress", data: counters });
  progressSeq = log.seq;
  progressAt = now;
  return { events, state: { ...state, after, progressSeq, progressAt }, next: { kind: "wait" } };
}

/** Events as server-sent events; their data is JSON, which never holds a raw line break. */
export function sseText(events: readonly StreamEvent[]): string {
  return events.map(({ id, event, data }) => `event: ${event}\nid: ${id}\ndata: ${data}\n\n`).join("");
}
