// Web Crypto only: the key tool runs this under Node as well as in the Worker.
const encoder = new TextEncoder();

// Each byte's two hex digits, made once: a batch hashes each of its people's keys, and turning
// a digest into hex by mapping and padding every byte cost more than the digest itself (bench/NOTES.md).
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** SHA-256 as 64 lower-case hex digits; text is hashed as UTF-8. */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  return hexOf(
    new Uint8Array(await crypto.subtle.digest("SHA-256", typeof data === "string" ? encoder.encode(data) : data)),
  );
}

/** Bytes as lower-case hex digits. */
export function hexOf(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += HEX[byte];
  return hex;
}

/** An HMAC-SHA-256 signing key of raw key bytes (or of a secret's UTF-8 bytes). */
export const hmacKey = (raw: string | ArrayBuffer): Promise<CryptoKey> =>
  crypto.subtle.importKey(
    "raw",
    typeof raw === "string" ? encoder.encode(raw) : raw,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );

/** HMAC-SHA-256 of a text (as UTF-8) under `key`, as raw bytes. */
export const hmacSha256 = (key: CryptoKey, text: string): Promise<ArrayBuffer> =>
  crypto.subtle.sign("HMAC", key, encoder.encode(text));
