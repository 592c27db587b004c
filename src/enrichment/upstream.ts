import type * as z from "zod";
import { log } from "../base/log";
import type { CallGate } from "./call-gate";
import type { CallCeiling } from "./ceiling-gate";
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

// A vendor's answer is a small JSON document; one larger than this (a million characters) is not one.
const MAX_ANSWER_CHARACTERS = 1_000_000;

export type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface UpstreamCall {
  provider: string;
  fetch: Fetch;
  timeoutMs: number;
  /** A vendor's shared rate budget (callGate): absent for calls nobody budgets (DNS, the sandbox, VENDOR_GOVERNOR off). */
  gate?: CallGate;
  /** A vendor's daily call ceiling (ceilingGate): absent for a vendor VENDOR_DAILY_CALLS does not name. */
  ceiling?: CallCeiling;
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
  // Before the try: a call the governor holds, or the day's ceiling refuses, never reached the vendor, and says
  // so. A vendor known to be at its ceiling is refused before waiting for the rate; a call is counted against
  // the ceiling only once the rate lets it go, so every call counted is a call made.
  call.ceiling?.refuseWhenSpent();
  await call.gate?.take();
  await call.ceiling?.take();
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
    throw vendorAnswerError(call, "not JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw vendorAnswerError(call, "an undocumented shape");
  return parsed.data;
}

// Named by vendor and what was wrong, never with the body (it may name the person).
const vendorAnswerError = (call: UpstreamCall, what: string) =>
  new VendorAnswerError(`${call.provider}: upstream answered ${what}`);

/** The body, read whole before `deadline` and within MAX_ANSWER_CHARACTERS; a VendorAnswerError otherwise. */
async function bodyText(call: UpstreamCall, response: Response, deadline: AbortSignal): Promise<string> {
  const reader = response.body?.getReader();
  let text = "";
  if (!reader) return text;
  const unfinished = `a body not finished within ${call.timeoutMs} ms`;
  const late = new Promise<never>((_, reject) => {
    const fail = () => reject(vendorAnswerError(call, unfinished));
    if (deadline.aborted) fail();
    else deadline.addEventListener("abort", fail, { once: true });
  });
  // Handled here too: once the body is read, the deadline passing later rejects this for no one.
  late.catch(() => undefined);
  const decoder = new TextDecoder();
  try {
    for (
      let read = await Promise.race([reader.read(), late]);
      !read.done;
      read = await Promise.race([reader.read(), late])
    ) {
      text += decoder.decode(read.value, { stream: true });
      if (text.length > MAX_ANSWER_CHARACTERS) throw vendorAnswerError(call, "more than an answer holds");
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    // The deadline also aborts the fetch, whose read may fail first: still the timeout.
    if (error instanceof VendorAnswerError) throw error;
    throw vendorAnswerError(call, deadline.aborted ? unfinished : "a body cut off");
  }
  return text + decoder.decode();
}
