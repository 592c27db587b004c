// How long to wait before the next request, from what the server said: the
// `Retry-After` of a 429 (or 409), and the IETF RateLimit field
// (draft-ietf-httpapi-ratelimit-headers), parsed as a structured field.
import { parseList } from "structured-headers";

export interface RateLimitState {
  /** The policy's name, e.g. "contact_info_status". */
  policy: string;
  /** Requests left in the window. */
  remaining: number;
  /** Seconds until a unit of quota frees. */
  resetSeconds: number;
}

/** The first policy of a `RateLimit` field, or undefined when absent or malformed (a bad header is no reason to fail). */
export function parseRateLimit(value: string | null): RateLimitState | undefined {
  if (!value) return undefined;
  try {
    const [first] = parseList(value);
    if (!first || Array.isArray(first[0])) return undefined;
    const [name, parameters] = first;
    const remaining = parameters.get("r");
    const resetSeconds = parameters.get("t");
    if (typeof remaining !== "number" || typeof resetSeconds !== "number") return undefined;
    return { policy: String(name), remaining, resetSeconds };
  } catch {
    return undefined;
  }
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Milliseconds to wait before polling again: at least `minimumMs`, and when the
 * quota runs low the rest of it spread over the time until a unit frees, so that
 * polling (even from several loops sharing one budget) slows down instead of
 * running into a 429.
 */
export function pollDelayMs(rateLimit: RateLimitState | undefined, minimumMs: number): number {
  if (!rateLimit) return minimumMs;
  if (rateLimit.remaining <= 0) return Math.max(minimumMs, rateLimit.resetSeconds * 1000);
  return Math.max(minimumMs, Math.ceil((rateLimit.resetSeconds * 1000) / rateLimit.remaining));
}
