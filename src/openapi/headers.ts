// Response headers as the document describes them; examples come from the
// Worker's own formatting (rate-limit/headers.ts), never written out by hand.
import { notInTheWorker, once } from "../base/once";
import type { EndpointType } from "../rate-limit/endpoint-types";
import { rateLimitHeaders as formatRateLimitHeaders } from "../rate-limit/headers";
import type { WindowUsage } from "../rate-limit/sliding-window";

/** A response header as the document states it (a type, not an interface, so it fits HeaderObject's x- index). */
export type Header = {
  description: string;
  schema: { type: "string" | "integer"; example?: string | number; enum?: string[] };
  required?: boolean;
};

export const header = (description: string, example: string | number, required = false): Header => ({
  schema: { type: typeof example === "number" ? "integer" : "string", example },
  description,
  ...(required ? { required: true } : {}),
});

export const requestIdHeader = OPENAPI_METADATA
  ? once(() =>
      header(
        "The request's id: Cloudflare's Ray ID, or a UUID. The same as the problem's requestId; quote it to support.",
        "8f0c2e1a9b7d4c3e-AMS",
        true,
      ),
    )
  : notInTheWorker;

/** The headers of an answer that carries only the request's id. */
export const requestIdHeaders = () => ({ "x-request-id": requestIdHeader() });

export const retryAfterHeader = (description: string, seconds: number) => header(description, seconds, true);

/** An example of the usage an answer reports: `used` of `limit` counted, the oldest leaving in `resetSeconds`. */
export const exampleUsage = (limit: number, used: number, resetSeconds: number): WindowUsage => ({
  limit,
  windowSeconds: 60,
  used,
  remaining: Math.max(0, limit - used),
  resetSeconds,
});

/** RateLimit and RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers), their examples formatted as the Worker formats them. */
export function rateLimitHeaders(endpointType: EndpointType, usage: WindowUsage): Record<string, Header> {
  const example = formatRateLimitHeaders(endpointType, usage);
  return {
    RateLimit: header(
      "IETF RateLimit field: remaining quota (r) and seconds until a unit frees (t).",
      example.ratelimit ?? "",
      true,
    ),
    "RateLimit-Policy": header(
      "IETF RateLimit-Policy field: quota (q) per window of w seconds.",
      example["ratelimit-policy"] ?? "",
      true,
    ),
  };
}
