import { ApiError, badRequest } from "./problem";

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/** Reads a JSON request body within `maxBytes`, with the 415/413/400 a client mistake deserves. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!JSON_MEDIA_TYPE.test(contentType)) {
    throw new ApiError({
      status: 415,
      code: "unsupported_media_type",
      title: "Unsupported Media Type",
      detail: "Send the body as JSON with content-type: application/json.",
      headers: { "accept-post": "application/json" },
    });
  }
  const tooLarge = () =>
    new ApiError({
      status: 413,
      code: "payload_too_large",
      title: "Payload Too Large",
      detail: `The body must be at most ${maxBytes} bytes.`,
      extensions: { maxBytes },
    });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > maxBytes) throw tooLarge();
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw badRequest("malformed_json", "The body is not valid UTF-8 JSON.");
  }
}
