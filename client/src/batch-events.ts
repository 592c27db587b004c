// Waiting for a batch over its event stream (GET …/{id}/events): the counters come as
// items finish, without spending a request per poll. Parsed by eventsource-parser (the
// WHATWG algorithm, kept by others) rather than by hand.
import { createParser, type EventSourceMessage } from "eventsource-parser";

/** The counters a `progress` or `completed` event carries: the status route's, without the items. */
export interface StreamedCounters {
  status: "pending" | "processing" | "completed";
  totalItems: number;
  completedItems: number;
  failedItems: number;
}

/** An item event's body, as far as a caller counting outcomes relies on it. */
function isItem(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { index, status } = value as Record<string, unknown>;
  return typeof index === "number" && typeof status === "string";
}

/** Opens the stream after `lastEventId` (or from the start): its body, or null when it cannot be had. */
export type OpenStream = (lastEventId: string | undefined) => Promise<ReadableStream<Uint8Array> | null>;

// Reconnects in a row that bring no event before waitForBatch gives the stream up for polling.
const MAX_EMPTY_RECONNECTS = 2;

function isCounters(value: unknown): value is StreamedCounters {
  if (typeof value !== "object" || value === null) return false;
  const { status, totalItems, completedItems, failedItems } = value as Record<string, unknown>;
  return (
    typeof status === "string" &&
    typeof totalItems === "number" &&
    typeof completedItems === "number" &&
    typeof failedItems === "number"
  );
}

/**
 * Follows the stream until its `completed` event and answers those counters, telling
 * `onProgress` each `progress` and the `completed`, and `onItem` each `item` event. A stream that ends early is
 * reopened after the last event seen (Last-Event-ID), so nothing is missed; null
 * when the stream cannot be opened or keeps ending without news: the caller polls.
 */
export async function followBatch<T extends StreamedCounters, I = unknown>(
  open: OpenStream,
  { onProgress, onItem }: { onProgress?: (counters: T) => void; onItem?: (item: I) => void },
  signal: AbortSignal | undefined,
): Promise<T | null> {
  let lastEventId: string | undefined;
  for (let empty = 0; empty <= MAX_EMPTY_RECONNECTS; ) {
    let body: ReadableStream<Uint8Array> | null;
    try {
      body = await open(lastEventId);
    } catch (error) {
      if (signal?.aborted) throw error;
      return null;
    }
    if (!body) return null;
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    let news = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
        for (const event of events.splice(0)) {
          if (event.id !== undefined) lastEventId = event.id;
          news = true;
          if (event.event === "item" && onItem) {
            const item: unknown = JSON.parse(event.data);
            if (isItem(item)) onItem(item as I);
            continue;
          }
          if (event.event !== "progress" && event.event !== "completed") continue;
          const counters: unknown = JSON.parse(event.data);
          if (!isCounters(counters)) return null;
          onProgress?.(counters as T);
          if (event.event === "completed") return counters as T;
        }
      }
    } catch (error) {
      // A dropped connection is reopened below; an abort is the caller's.
      if (signal?.aborted) throw error;
    } finally {
      await reader.cancel().catch(() => {});
    }
    empty = news ? 0 : empty + 1;
  }
  return null;
}
