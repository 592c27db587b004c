import type { SSEStreamingApi } from "hono/streaming";

// A comment line this often keeps an idle stream open through proxies (Cloudflare's closes a
// connection silent for 100 s). Sent by the relay, so the source (the batch object) works per event only.
export const HEARTBEAT_MS = 15_000;

/** What keeps a stream allowed: asked every `everyMs`; the stream ends at the first false (or failure). */
export interface Renewal {
  everyMs: number;
  renew(): Promise<boolean>;
}

/**
 * Copies server-sent events from `source` (the batch object's) to the client, and a
 * heartbeat comment while none come, only between two events (the source writes whole
 * events, but the bytes may arrive cut elsewhere). Ends when the source ends (completed,
 * or the object restarted: the client reconnects with Last-Event-ID), the client leaves,
 * or `renewal` says no (a revoked key): then the source is cancelled and nothing more is sent.
 */
export async function relay(source: ReadableStream<Uint8Array>, sse: SSEStreamingApi, renewal?: Renewal): Promise<void> {
  const reader = source.getReader();
  let refused = false;
  const stop = () => {
    void reader.cancel().catch(() => {});
  };
  sse.onAbort(stop);
  let betweenEvents = true;
  const heartbeat = setInterval(() => {
    if (betweenEvents) void sse.write(": heartbeat\n\n");
  }, HEARTBEAT_MS);
  let renewing = false;
  // One renewal at a time: a slow answer delays the next, never doubles it.
  const renewals = renewal
    ? setInterval(() => {
        if (renewing) return;
        renewing = true;
        renewal
          .renew()
          .catch(() => false)
          .then((allowed) => {
            renewing = false;
            if (allowed) return;
            refused = true;
            stop();
          });
      }, renewal.everyMs)
    : undefined;
  try {
    for (;;) {
      // A read pending when the renewal cancelled the source rejects: that end is the renewal's.
      const { done, value } = await reader.read().catch((error: unknown) => {
        if (refused) return { done: true as const, value: undefined };
        throw error;
      });
      if (done || refused) return;
      betweenEvents = value.length >= 2 && value[value.length - 2] === 10 && value[value.length - 1] === 10;
      await sse.write(value);
    }
  } finally {
    clearInterval(heartbeat);
    clearInterval(renewals);
  }
}
