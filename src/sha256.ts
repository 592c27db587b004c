// Web Crypto only: the key tool runs this under Node as well as in the Worker.
const encoder = new TextEncoder();

/** SHA-256 as 64 lower-case hex digits; text is hashed as UTF-8. */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", typeof data === "string" ? encoder.encode(data) : data);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
