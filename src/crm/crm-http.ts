import type * as z from "zod";
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

/**
 * The CRM answered what its documentation does not: an HTML page, a shape we do not know, a body not
 * finished in time, pages that never end. Its fault, not the customer's: a 502 with a retry time.
 */
export class CrmBadAnswerError extends CrmUnavailableError {}

/**
 * Any other answer we cannot use: the request was wrong for this CRM (a bug, or a list we may not read).
 * `missingScopes` only when the CRM said the token lacks a scope (HubSpot MISSING_SCOPES, Salesforce
 * INSUFFICIENT_ACCESS…): only then is the customer told to check the token's scopes.
 */
export class CrmRefusedError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly missingScopes = false,
  ) {
    super(message);
  }
}

export interface CrmCall {
  provider: string;
  fetch: Fetch;
  /** The CRM's header naming its window to wait when a 429 has no Retry-After (CrmDeclaration.waitHeader). */
  waitHeader?: string;
  /** Each call's whole time, its body's last byte included. */
  timeoutMs: number;
  /** The token's shared budget at the vendor governor; absent when calls are not governed. */
  gate?: CallGate;
  /** Aborted when the request that started the calls is gone (the client hung up, or its deadline passed). */
  signal?: AbortSignal;
}

// When a CRM gives no retry time with its 429 or 5xx.
export const DEFAULT_RETRY_SECONDS = 10;
// The largest body a CRM call may answer: a page of 250 members or 200 records with history is far less.
const MAX_BODY_BYTES = 8 * 1024 * 1024;
// What the CRMs say of a token that lacks a scope (HubSpot's category; Salesforce's errorCode prefix).
const SCOPE_WORDS = /"(?:category|errorCode)"\s*:\s*"(?:MISSING_SCOPES|INSUFFICIENT_ACCESS[A-Z_]*)"/;

/** The wait a 429 names: Retry-After, else the CRM's own window header (in milliseconds), if it declares one. */
function waitOf(response: Response, waitHeader: string | undefined): number {
  const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
  if (retryAfter !== undefined) return retryAfter;
  const intervalMs = waitHeader ? Number(response.headers.get(waitHeader)) : 0;
  return intervalMs > 0 ? Math.ceil(intervalMs / 1000) : DEFAULT_RETRY_SECONDS;
}

/** The body as text, at most MAX_BODY_BYTES, or null when it was not finished before `signal` (bytes trickling in or not). */
async function bodyText(response: Response, signal: AbortSignal): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const stop = new Promise<null>((resolve) => {
    if (signal.aborted) resolve(null);
    signal.addEventListener("abort", () => resolve(null), { once: true });
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const read = await Promise.race([reader.read(), stop]);
    if (read === null || size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    if (read.done) break;
    chunks.push(read.value);
    size += read.value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The CRM's fault, said as one: logged by provider and kind only, answered 502 with a retry time. */
export function badAnswer(provider: string, what: string): CrmBadAnswerError {
  log("crm_bad_answer", { provider, what });
  return new CrmBadAnswerError(`${provider} ${what}`, DEFAULT_RETRY_SECONDS);
}

/** Throws the reason the calls must stop when the request that started them is gone. */
function stopIfGone(call: CrmCall): void {
  if (call.signal?.aborted)
    throw call.signal.reason instanceof Error ? call.signal.reason : new Error("the request is gone");
}

/**
 * One CRM call, through the token's budget: a 401 throws CrmUnauthorizedError, a 429 pauses the
 * token at the governor for its wait and throws CrmUnavailableError, as 5xx and timeouts do;
 * `accept` lists the other statuses the caller reads (200 and, for batch writes, 207; 404 for a
 * missing list). The body is JSON, finished within the timeout: anything else is the CRM's fault
 * (CrmBadAnswerError). The token and the request never reach the log.
 */
export async function crmFetch(
  call: CrmCall,
  request: Request,
  accept: readonly number[] = [200],
): Promise<{ status: number; body: unknown }> {
  stopIfGone(call);
  try {
    await call.gate?.take();
  } catch (error) {
    // The governor held the call (the token's budget is spent, or paused by a 429): wait as it says.
    const wait = error instanceof VendorHeldError ? error.retryAfterSeconds : undefined;
    throw new CrmUnavailableError(`${call.provider}: held by the rate governor`, wait ?? DEFAULT_RETRY_SECONDS);
  }
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([timeout, call.signal]) : timeout;
  let response: Response;
  try {
    response = await call.fetch(request, { signal });
  } catch {
    stopIfGone(call);
    log("crm_unreachable", { provider: call.provider });
    throw new CrmUnavailableError(`${call.provider} did not answer`, DEFAULT_RETRY_SECONDS);
  }
  if (response.status === 401) {
    await response.body?.cancel();
    throw new CrmUnauthorizedError(`${call.provider} refused the token`);
  }
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    const wait = waitOf(response, call.waitHeader);
    if (response.status === 429) await call.gate?.pause(wait);
    throw new CrmUnavailableError(`${call.provider} answered ${response.status}`, wait);
  }
  const text = await bodyText(response, signal);
  stopIfGone(call);
  if (text === null) throw badAnswer(call.provider, `did not finish its answer within ${call.timeoutMs} ms`);
  if (!accept.includes(response.status))
    throw new CrmRefusedError(`${call.provider} answered ${response.status}`, response.status, SCOPE_WORDS.test(text));
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    throw badAnswer(call.provider, `answered ${response.status} with a body that is not JSON`);
  }
}

/** `body` as `schema` reads it, or the CRM's fault: it answered a shape its documentation does not. */
export function crmShape<T extends z.ZodType>(provider: string, schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw badAnswer(provider, "answered a shape we do not know");
  return result.data;
}

/** One page of a paged read: what it holds, and the CRM's cursor for the next (absent at the end). */
export interface CrmPage<T> {
  items: T[];
  next?: string;
}

/**
 * Every page of a paged read, from the first: it ends when the CRM says so, on an empty page, once
 * `enough` items are read, or when the request that started it is gone. A cursor given twice, or more
 * than `maxPages` pages (derived by the caller from what the read may return), is the CRM's fault.
 */
export async function readPages<T>(
  call: CrmCall,
  limits: { maxPages: number; enough: number },
  page: (cursor: string | undefined) => Promise<CrmPage<T>>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= limits.maxPages) throw badAnswer(call.provider, `gave more than ${limits.maxPages} pages`);
    stopIfGone(call);
    const read = await page(cursor);
    items.push(...read.items);
    if (read.next === undefined || read.items.length === 0 || items.length >= limits.enough) return items;
    if (seen.has(read.next)) throw badAnswer(call.provider, "gave the same page cursor twice");
    seen.add(read.next);
    cursor = read.next;
  }
}
