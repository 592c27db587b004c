// What the live and fairness benchmarks share: submitting a batch of distinct people and
// following it on its event stream (GET …/{id}/events?items=true), which pushes each item as
// it finishes, so an item's time from submit to result is taken as it arrives, with no polling.
import { createParser } from "eventsource-parser";
import type { BatchReceipt } from "../client/src/index";
import type { ServerKey } from "../scripts/local-server";

/** A name part for person `n` of batch `tag` (letters only, as names are). */
const letters = (n: number) => {
  let text = "";
  do {
    text = String.fromCharCode(97 + (n % 26)) + text;
    n = Math.floor(n / 26);
  } while (n > 0);
  return text;
};

/** The JSON body of a batch of `size` people no earlier batch had (the result cache knows none), over 50 domains. */
export function batchBody(tag: number, size: number, fields?: readonly ("email" | "phone")[]): string {
  return JSON.stringify({
    items: Array.from({ length: size }, (_, i) => ({
      firstName: `P${letters(i)}`,
      lastName: `Q${letters(tag)}`,
      companyDomain: `live${letters(i % 50)}.example`,
    })),
    ...(fields ? { fields } : {}),
  });
}

export interface FollowedBatch {
  batchId: string;
  acceptMs: number;
  /** Until the batch's completedAt (its last item recorded), by the Worker's clock (this machine's). */
  completeMs: number;
  /** Each item's time from the submit to its event, ms, in arrival order (none without items). */
  itemMs: number[];
}

export interface SubmittedBatch {
  batchId: string;
  /** Epoch ms when the submit was sent (the Worker's clock is this machine's). */
  started: number;
  acceptMs: number;
}

const contactInfo = (url: string, key: ServerKey) => `${url}/v2/${key.environment}/person/contact-info`;

/** Submits `body` and answers once it is accepted (202). */
export async function submitBatch(url: string, key: ServerKey, body: string): Promise<SubmittedBatch> {
  const started = Date.now();
  const response = await fetch(contactInfo(url, key), {
    method: "POST",
    headers: { "x-api-key": key.key, "content-type": "application/json" },
    body,
  });
  const acceptMs = Date.now() - started;
  if (response.status !== 202) throw new Error(`submit answered ${response.status}: ${await response.text()}`);
  const { batchId } = (await response.json()) as BatchReceipt;
  return { batchId, started, acceptMs };
}

/**
 * Follows a submitted batch's event stream until its `completed` event (reopening it if it
 * drops). `withItems: false` follows only its progress (no item events: less work for the batch).
 */
export async function followBatch(
  url: string,
  key: ServerKey,
  { batchId, started, acceptMs }: SubmittedBatch,
  { timeoutMs, withItems = true }: { timeoutMs: number; withItems?: boolean },
): Promise<FollowedBatch> {
  const base = contactInfo(url, key);
  const headers = { "x-api-key": key.key };
  const itemMs: number[] = [];
  let lastEventId: string | undefined;
  let completed = false;
  const signal = AbortSignal.timeout(timeoutMs);
  while (!completed) {
    const stream = await fetch(`${base}/${batchId}/events?items=${withItems}`, {
      headers: { ...headers, accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
      signal,
    });
    if (stream.status !== 200 || !stream.body)
      throw new Error(`events answered ${stream.status}: ${await stream.text()}`);
    const parser = createParser({
      onEvent(event) {
        if (event.id) lastEventId = event.id;
        if (event.event === "item") itemMs.push(Date.now() - started);
        if (event.event === "completed") completed = true;
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of stream.body) {
      parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      if (completed) break;
    }
  }
  const summary = (await (await fetch(`${base}/${batchId}?limit=1`, { headers, signal })).json()) as {
    completedAt: string | null;
  };
  return { batchId, acceptMs, completeMs: Date.parse(summary.completedAt ?? "") - started, itemMs };
}

export async function submitAndFollow(
  url: string,
  key: ServerKey,
  body: string,
  options: { timeoutMs: number; withItems?: boolean },
): Promise<FollowedBatch> {
  return followBatch(url, key, await submitBatch(url, key, body), options);
}

/** The value at quantile q of the values (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}
