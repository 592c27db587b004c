import { log } from "../base/log";
import type { CallGate } from "./call-gate";
import { PermanentProviderError, TransientProviderError } from "./provider";

/** The upstream could not be reached at all (DNS, connection): not merely slow. */
export class UpstreamUnreachableError extends TransientProviderError {}
/** The vendor answered its rate limit (429, or its own status for it): counted in its scorecard. */
export class VendorRateLimitedError extends TransientProviderError {}

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
 * other non-2xx answers are permanent unless the rules say otherwise. A body
 * that is not JSON is permanent: retrying will not fix it.
 */
export async function fetchJson<T>(call: UpstreamCall, request: Request, rules: StatusRules = {}): Promise<T | null> {
  // Before the try: a call the governor holds never reached the vendor, and says so.
  await call.gate?.take();
  let response: Response;
  try {
    response = await call.fetch(request, { signal: AbortSignal.timeout(call.timeoutMs) });
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
  try {
    return (await response.json()) as T;
  } catch {
    throw new PermanentProviderError(`${call.provider}: upstream answered with malformed JSON`);
  }
}
