import type * as z from "zod";
import { log } from "../base/log";
import type { CallGate } from "./call-gate";
import { PermanentProviderError, TransientProviderError } from "./provider";

/** The upstream could not be reached at all (DNS, connection): not merely slow. */
export class UpstreamUnreachableError extends TransientProviderError {}
/** The vendor answered its rate limit (429, or its own status for it): counted in its scorecard. */
export class VendorRateLimitedError extends TransientProviderError {}
/**
 * The vendor answered 2xx with what is not an answer: a page that is not JSON (an HTML maintenance or
 * login page), JSON of a shape it does not document, or a body not finished within the timeout (bytes
 * trickling in count for nothing). The vendor's fault, and often passing: the source is unavailable
 * for this attempt, and the item is retried.
 */
export class VendorAnswerError extends TransientProviderError {}

// A vendor's answer is a small JSON document; one larger than this is not one.
const MAX_ANSWER_BYTES = 1024 * 1024;

export type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface UpstreamCall {
  provider: string;
  fetch: Fetch;
  timeoutMs: number;
  /** A vendor's shared rate budget (callGate): absent for calls nobody budgets (DNS, the sandbox, VENDOR_GOVERNOR off). */
  gate?: CallGate;
}

/** Retry-After as seconds, from either of its forms (seconds or an HTTP date). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

export interface StatusRules {
  /** Statuses meaning "no such person": the call returns null. */
  notFound?: readonly number[];
  /** Statuses besides 429 and 5xx that are worth retrying. */
  transient?: readonly number[];
  /** Headers to read the retry time from, in order (Retry-After, or a vendor's reset time). */
  retryAfterHeaders?: readonly string[];
  /** Statuses meaning the vendor's rate limit, which pause it for everyone when they carry a retry time (default 429). */
  rateLimited?: readonly number[];
}

/**
 * Calls an upstream with a timeout and sorts its failures: 429, 5xx, timeouts
 * and network errors are transient (with the upstream's retry time when given);
 * other non-2xx answers are permanent unless the rules say otherwise. A 2xx is
 * read whole within the same timeout and checked against `schema` (what the
 * vendor documents): anything else is a VendorAnswerError.
 */
export async function fetchJson<T>(
  call: UpstreamCall,
  request: Request,
  schema: z.ZodType<T>,
  rules: StatusRules = {},
): Promise<T | null> {
  // Before the try: a call the governor holds never reached the vendor, and says so.
  await call.gate?.take();
  // One deadline for the whole answer: its headers, then every byte of its body.
  const deadline = AbortSignal.timeout(call.timeoutMs);
  let response: Response;
  try {
    response = await call.fetch(request, { signal: deadline });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const reason = timedOut ? `no answer within ${call.timeoutMs} ms` : "network error";
    // One line per failure; the request (it names the person) and the stack stay out.
    log("upstream_unreachable", { provider: call.provider, reason });
    throw timedOut
      ? new TransientProviderError(`${call.provider}: ${reason}`)
      : new UpstreamUnreachableError(`${call.provider}: ${reason}`);
  }
  if (rules.notFound?.includes(response.status)) {
    await response.body?.cancel();
    return null;
  }
  if (response.status === 429 || response.status >= 500 || rules.transient?.includes(response.status)) {
    await response.body?.cancel();
    const retryAfter = (rules.retryAfterHeaders ?? ["retry-after"])
      .map((name) => retryAfterSeconds(response.headers.get(name)))
      .find((seconds) => seconds !== undefined);
    const rateLimited = (rules.rateLimited ?? [429]).includes(response.status);
    if (retryAfter !== undefined && rateLimited) await call.gate?.pause(retryAfter);
    const message = `${call.provider}: upstream answered ${response.status}`;
    throw rateLimited
      ? new VendorRateLimitedError(message, retryAfter)
      : new TransientProviderError(message, retryAfter);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new PermanentProviderError(`${call.provider}: upstream answered ${response.status}`);
  }
  const text = await bodyText(call, response, deadline);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw vendorAnswerError(call, "an answer that is not JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw vendorAnswerError(call, "JSON of a shape it does not document");
  return parsed.data;
}

// Named by vendor and what was wrong, never with the body (it may name the person).
const vendorAnswerError = (call: UpstreamCall, what: string) =>
  new VendorAnswerError(`${call.provider}: upstream answered ${what}`);

/** The body, read whole before `deadline` and within MAX_ANSWER_BYTES; a VendorAnswerError otherwise. */
async function bodyText(call: UpstreamCall, response: Response, deadline: AbortSignal): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  let stop: (() => void) | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    stop = () => resolve("timeout");
    if (deadline.aborted) resolve("timeout");
    else deadline.addEventListener("abort", stop, { once: true });
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), timedOut]).catch(() => "failed" as const);
      if (read === "timeout") throw vendorAnswerError(call, `a body not finished within ${call.timeoutMs} ms`);
      if (read === "failed") throw vendorAnswerError(call, "a body cut off");
      if (read.done) break;
      size += read.value.byteLength;
      if (size > MAX_ANSWER_BYTES) throw vendorAnswerError(call, `more than ${MAX_ANSWER_BYTES} bytes`);
      chunks.push(read.value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    if (stop) deadline.removeEventListener("abort", stop);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
