import type { SSEStreamingApi } from "hono/streaming";

// A comment line this often keeps an idle stream open through proxies (Cloudflare's closes a
// connection silent for 100 s). Sent by the relay, so the source (the batch object) works per event only.
export const HEARTBEAT_MS = 15_000;

/**
 * Copies server-sent events from `source` (the batch object's) to the client, and a
 * heartbeat comment while none come, only between two events (the source writes whole
 * events, but the bytes may arrive cut elsewhere). Ends when the source ends (completed,
 * or the object restarted: the client reconnects with Last-Event-ID), or the client leaves.
 */
export async function relay(source: ReadableStream<Uint8Array>, sse: SSEStreamingApi): Promise<void> {
  const reader = source.getReader();
  sse.onAbort(() => {
    void reader.cancel().catch(() => {});
  });
  let betweenEvents = true;
  const heartbeat = setInterval(() => {
    if (betweenEvents) void sse.write(": heartbeat\n\n");
  }, HEARTBEAT_MS);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      betweenEvents = value.length >= 2 && value[value.length - 2] === 10 && value[value.length - 1] === 10;
      await sse.write(value);
    }
  } finally {
    clearInterval(heartbeat);
  }
}
