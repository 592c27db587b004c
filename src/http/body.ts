import type { HonoRequest } from "hono";
import { ApiError, badRequest } from "./problem";

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The request body within `maxBytes`. Hono caches it, so middleware (the
 * idempotency fingerprint) and the handler read the same bytes once.
 */
export async function readBodyBytes(request: HonoRequest, maxBytes: number): Promise<ArrayBuffer> {
  const tooLarge = () =>
    new ApiError({
      status: 413,
      code: "payload_too_large",
      title: "Payload Too Large",
      detail: `The body must be at most ${maxBytes} bytes.`,
      extensions: { maxBytes },
    });
  if (Number(request.header("content-length") ?? "0") > maxBytes) throw tooLarge();
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > maxBytes) throw tooLarge();
  return bytes;
}

/** Reads a JSON request body within `maxBytes`, with the 415/413/400 a client mistake deserves. */
export async function readJsonBody(request: HonoRequest, maxBytes: number): Promise<unknown> {
  if (!JSON_MEDIA_TYPE.test(request.header("content-type") ?? "")) {
    throw new ApiError({
      status: 415,
      code: "unsupported_media_type",
      title: "Unsupported Media Type",
      detail: "Send the body as JSON with content-type: application/json.",
      headers: { "accept-post": "application/json" },
    });
  }
  const bytes = await readBodyBytes(request, maxBytes);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw badRequest("malformed_json", "The body is not valid UTF-8 JSON.");
  }
}
