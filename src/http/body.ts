import type { HonoRequest } from "hono";
import { malformedJson, payloadTooLarge, problemInit, unsupportedMediaType } from "./errors";
import { ApiError } from "./problem";

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The request body stream failed while we read it: the client disconnected
 * mid-upload or broke the framing (workerd rejects the read with a plain
 * `Error: Network connection lost.`; we classify by where it happened, since the
 * same message also comes from failed RPC). Not our fault, and nobody is left to
 * read the answer, so app.onError drops it with an info line, not an error log.
 */
export class IncompleteBodyError extends ApiError {
  constructor(override readonly cause: unknown) {
    super(
      problemInit(
        "incomplete_body",
        "The request body ended before it was complete (the connection was closed or the framing was broken).",
      ),
    );
    this.name = "IncompleteBodyError";
  }
}

// One read per request: middleware (the idempotency fingerprint) and the
// handler share the same bytes. Keyed by the raw Request, which Hono keeps.
const bodies = new WeakMap<Request, Promise<ArrayBuffer>>();

/**
 * The request body within `maxBytes`, read chunk by chunk and counted, so a
 * body over the limit is answered 413 as soon as the limit is passed, whether
 * it declares a Content-Length or comes chunked without one, and memory never
 * holds more than `maxBytes`.
 */
export function readBodyBytes(request: HonoRequest, maxBytes: number): Promise<ArrayBuffer> {
  let body = bodies.get(request.raw);
  if (!body) {
    body = readLimited(request.raw, maxBytes);
    bodies.set(request.raw, body);
  }
  return body;
}

/**
 * readBodyBytes for a raw Request (the MCP door reads its POSTs before any router or SDK does). With
 * `drainBytes`, a body over the limit by at most that much is read to its end (and dropped) before the
 * 413, so that a client still uploading reads the answer instead of a reset connection.
 */
export async function readLimited(request: Request, maxBytes: number, drainBytes = 0): Promise<ArrayBuffer> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    if (Number(declared) <= maxBytes + drainBytes && request.body) await drain(request.body.getReader(), Infinity);
    else await request.body?.cancel().catch(() => undefined);
    throw payloadTooLarge(maxBytes);
  }
  if (request.body === null) return new ArrayBuffer(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await readChunk(reader);
    if (next.done) break;
    total += next.value.byteLength;
    if (total > maxBytes) {
      // Stop keeping it: the rest of the upload is refused, not buffered.
      await drain(reader, maxBytes + drainBytes - total);
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(next.value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes.buffer;
}

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    return await reader.read();
  } catch (error) {
    throw new IncompleteBodyError(error);
  }
}

/** Reads and drops up to `budget` more bytes, to the body's end; past the budget, stops reading. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  let left = budget;
  while (left >= 0) {
    const next = await readChunk(reader);
    if (next.done) return;
    left -= next.value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
}

/** Reads a JSON request body within `maxBytes`, with the 415/413/400 a client mistake deserves. */
export async function readJsonBody(request: HonoRequest, maxBytes: number): Promise<unknown> {
  if (!JSON_MEDIA_TYPE.test(request.header("content-type") ?? "")) {
    throw unsupportedMediaType();
  }
  const bytes = await readBodyBytes(request, maxBytes);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw malformedJson();
  }
}
