import { log } from "../base/log";
import { type CallGate, VendorHeldError } from "../enrichment/call-gate";
import { type Fetch, retryAfterSeconds } from "../enrichment/upstream";

/** The CRM refused the token (401: expired, revoked, or a Salesforce INVALID_SESSION_ID): reconnect. */
export class CrmUnauthorizedError extends Error {}

/** The CRM asked us to wait (429), or could not answer (5xx, timeout, network): try again after `retryAfterSeconds`. */
export class CrmUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Any other answer we cannot use: the request was wrong for this CRM (a bug, or a list we may not read). */
export class CrmRefusedError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface CrmCall {
  provider: string;
  fetch: Fetch;
  timeoutMs: number;
  /** The token's shared budget at the vendor governor; absent when calls are not governed. */
  gate?: CallGate;
}

// When a CRM gives no retry time with its 429 or 5xx.
const DEFAULT_RETRY_SECONDS = 10;

/** The wait a 429 names: Retry-After, else HubSpot's rolling window (X-HubSpot-RateLimit-Interval-Milliseconds). */
function waitOf(response: Response): number {
  const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
  if (retryAfter !== undefined) return retryAfter;
  const intervalMs = Number(response.headers.get("x-hubspot-ratelimit-interval-milliseconds"));
  return intervalMs > 0 ? Math.ceil(intervalMs / 1000) : DEFAULT_RETRY_SECONDS;
}

/**
 * One CRM call, through the token's budget: a 401 throws CrmUnauthorizedError, a 429 pauses the
 * token at the governor for its wait and throws CrmUnavailableError, as 5xx and timeouts do;
 * `accept` lists the other statuses the caller reads (200 and, for batch writes, 207; 404 for a
 * missing list). The body is JSON; the token and the request never reach the log.
 */
export async function crmFetch(
  call: CrmCall,
  request: Request,
  accept: readonly number[] = [200],
): Promise<{ status: number; body: unknown }> {
  try {
    await call.gate?.take();
  } catch (error) {
    // The governor held the call (the token's budget is spent, or paused by a 429): wait as it says.
    const wait = error instanceof VendorHeldError ? error.retryAfterSeconds : undefined;
    throw new CrmUnavailableError(`${call.provider}: held by the rate governor`, wait ?? DEFAULT_RETRY_SECONDS);
  }
  let response: Response;
  try {
    response = await call.fetch(request, { signal: AbortSignal.timeout(call.timeoutMs) });
  } catch {
    log("crm_unreachable", { provider: call.provider });
    throw new CrmUnavailableError(`${call.provider} did not answer`, DEFAULT_RETRY_SECONDS);
  }
  if (response.status === 401) {
    await response.body?.cancel();
    throw new CrmUnauthorizedError(`${call.provider} refused the token`);
  }
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    const wait = waitOf(response);
    if (response.status === 429) await call.gate?.pause(wait);
    throw new CrmUnavailableError(`${call.provider} answered ${response.status}`, wait);
  }
  if (!accept.includes(response.status)) {
    await response.body?.cancel();
    throw new CrmRefusedError(`${call.provider} answered ${response.status}`, response.status);
  }
  try {
    return { status: response.status, body: await response.json() };
  } catch {
    throw new CrmRefusedError(`${call.provider} answered with malformed JSON`, response.status);
  }
}
