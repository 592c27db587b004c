// Web Crypto only: the key tool runs this under Node as well as in the Worker.
const encoder = new TextEncoder();

// Each byte's two hex digits, made once: a batch hashes each of its people's keys, and turning
// a digest into hex by mapping and padding every byte cost more than the digest itself (bench/NOTES.md).
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** SHA-256 as 64 lower-case hex digits; text is hashed as UTF-8. */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", typeof data === "string" ? encoder.encode(data) : data));
  let hex = "";
  for (const byte of digest) hex += HEX[byte];
  return hex;
}
