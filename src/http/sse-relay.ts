import type { SSEStreamingApi } from "hono/streaming";

// A comment line this often keeps an idle stream open through proxies (Cloudflare's closes a
// connection silent for 100 s). Sent by the relay, so the source (the batch object) works per event only.
export const HEARTBEAT_MS = 15_000;

/**
 * What keeps a stream allowed: asked every `everyMs`; the stream ends at the first false (or
 * failure), or once one write has waited `stalledMs` for a client that takes nothing (one that
 * left unnoticed: its stream would otherwise hold its place, renewed, for as long as the source runs).
 */
export interface Renewal {
  everyMs: number;
  stalledMs: number;
  renew(): Promise<boolean>;
}

/** Why a relay ended: its source ended (or the client left), a renewal said no, or the client stalled. */
export type RelayEnd = "source" | "refused" | "stalled";

/**
 * Copies server-sent events from `source` (the batch object's) to the client, and a
 * heartbeat comment while none come, only between two events (the source writes whole
 * events, but the bytes may arrive cut elsewhere). Ends when the source ends (completed,
 * or the object restarted: the client reconnects with Last-Event-ID), the client leaves,
 * or `renewal` ends it: then the source is cancelled and nothing more is sent.
 */
export async function relay(
  source: ReadableStream<Uint8Array>,
  sse: SSEStreamingApi,
  renewal?: Renewal,
): Promise<RelayEnd> {
  const reader = source.getReader();
  let end: RelayEnd = "source";
  let ended!: () => void;
  const stopped = new Promise<void>((resolve) => (ended = resolve));
  const stop = (why: RelayEnd) => {
    if (end === "source") end = why;
    void reader.cancel().catch(() => {});
    ended();
  };
  sse.onAbort(() => stop("source"));
  let betweenEvents = true;
  const heartbeat = setInterval(() => {
    if (betweenEvents) void sse.write(": heartbeat\n\n");
  }, HEARTBEAT_MS);
  let writingSince: number | undefined;
  let renewing = false;
  // One renewal at a time: a slow answer delays the next, never doubles it.
  const renewals = renewal
    ? setInterval(() => {
        if (writingSince !== undefined && Date.now() - writingSince >= renewal.stalledMs) return stop("stalled");
        if (renewing) return;
        renewing = true;
        renewal
          .renew()
          .catch(() => false)
          .then((allowed) => {
            renewing = false;
            if (!allowed) stop("refused");
          });
      }, renewal.everyMs)
    : undefined;
  try {
    for (;;) {
      // A read pending when the source was cancelled here rejects: that end is the renewal's.
      const { done, value } = await reader.read().catch((error: unknown) => {
        if (end !== "source") return { done: true as const, value: undefined };
        throw error;
      });
      if (done || end !== "source") return end;
      betweenEvents = value.length >= 2 && value[value.length - 2] === 10 && value[value.length - 1] === 10;
      writingSince = Date.now();
      await Promise.race([sse.write(value), stopped]);
      writingSince = undefined;
      if (end !== "source") return end;
    }
  } finally {
    clearInterval(heartbeat);
    clearInterval(renewals);
  }
}
