import type { StatusRead } from "../../contact-info/batch-contract";
import type { EventsRequest } from "../../contact-info/events-query";
import type { StatusRow } from "../batch-row";
import { type EventSnapshot, readEvents } from "./event-log";
import { ITEM_EVENTS_PER_STEP, planEvents, REPLAY_STEP_PAUSE_MS, type SubscriberState, sseText } from "./event-plan";

/** What opening a batch's event stream finds: as a status read does, or a Last-Event-ID this batch never issued. */
export type EventsRead =
  | { kind: "stream"; stream: ReadableStream<Uint8Array> }
  | Exclude<StatusRead, { kind: "page" }>
  | { kind: "unknown_event_id"; lastSeq: number };

const encoder = new TextEncoder();

/**
 * The batch's open event streams (GET …/{id}/events), each a byte stream of server-sent
 * events that the batch object pushes: a stream reads the log only when the consumer
 * has taken what it was sent and `notify` says the log changed (or a coalesced progress
 * event falls due), so its cost is proportional to events, never to time. The streams
 * live in the object's memory: the platform does not evict the object while one is open,
 * but a restart (a deploy) ends them, and clients reconnect with Last-Event-ID, which
 * the log (in SQLite) resumes exactly, on the next instance.
 */
export class EventStreams {
  readonly #storage: DurableObjectStorage;
  /** Per open stream, what wakes it when the log changes. */
  readonly #waiting = new Set<() => void>();

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  open(row: StatusRow, { withItems, after }: EventsRequest): EventsRead {
    if (row.deleted_at !== null) return { kind: "deleted", deletedAt: row.deleted_at };
    if (row.expired_at !== null) return { kind: "expired", expiredAt: row.expired_at };
    const first = this.#read(after ?? 0, withItems);
    if (!first) return { kind: "none" };
    if (after !== null && after > first.seq) return { kind: "unknown_event_id", lastSeq: first.seq };
    let state: SubscriberState = { withItems, after: after ?? 0, progressSeq: null, progressAt: 0 };
    let unread: EventSnapshot | null = first;
    const waiting: { wake?: () => void } = {};
    let closed = false;
    // After a full step of item events, when the next may be read (a replay is paced).
    let nextStepAt = 0;
    const stop = () => {
      closed = true;
      waiting.wake?.();
    };
    const stream = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        while (!closed) {
          const pause = nextStepAt - Date.now();
          if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
          if (closed) return;
          const log = unread ?? this.#read(state.after, withItems);
          unread = null;
          // Deleted or expired meanwhile: the stream ends; a reconnect is answered 410.
          if (!log) {
            stop();
            return controller.close();
          }
          const step = planEvents(state, log, Date.now());
          state = step.state;
          if (step.events.length > 0) controller.enqueue(encoder.encode(sseText(step.events)));
          if (step.next.kind === "close") {
            stop();
            return controller.close();
          }
          if (step.next.kind === "more") nextStepAt = Date.now() + REPLAY_STEP_PAUSE_MS;
          // Sent: the next pull (once the consumer took these) reads on.
          if (step.events.length > 0) return;
          if (step.next.kind === "wait") await this.#change(step.next.inMs, waiting);
        }
      },
      cancel: stop,
    });
    return { kind: "stream", stream };
  }

  /** The log changed (items finished, or the batch was deleted or expired): every waiting stream reads it. */
  notify(): void {
    for (const wake of [...this.#waiting]) wake();
  }

  #read(after: number, withItems: boolean): EventSnapshot | null {
    return readEvents(this.#storage, after, withItems ? ITEM_EVENTS_PER_STEP : 0);
  }

  /** Resolves at the next notify (or `stop`, through `waiting.wake`), or in `inMs` if given, whichever is first. */
  #change(inMs: number | undefined, waiting: { wake?: () => void }): Promise<void> {
    return new Promise((resolve) => {
      const timer = inMs === undefined ? undefined : setTimeout(() => wake(), inMs);
      const wake = () => {
        clearTimeout(timer);
        this.#waiting.delete(wake);
        waiting.wake = undefined;
        resolve();
      };
      this.#waiting.add(wake);
      waiting.wake = wake;
    });
  }
}
