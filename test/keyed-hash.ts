import { env } from "cloudflare:workers";
import { createHash, createHmac } from "node:crypto";
import type { Environment } from "../src/base/environment";

// The keyed hash of src/contact-info/person-keys.ts made again here with node:crypto, so the
// tests check the stored hashes against an implementation that is not ours: HMAC-SHA-256, under
// the customer's key (HMAC of "person-keys/1:<environment>:<customerId>" under the secret), of
// the text's SHA-256 in hex.
export function keyedHash(customerId: string, environment: Environment, text: string): string {
  const { PERSON_KEY_SECRET: secret } = env as Env & { PERSON_KEY_SECRET: string }; // vitest.config.ts
  const customerKey = createHmac("sha256", secret).update(`person-keys/1:${environment}:${customerId}`).digest();
  return createHmac("sha256", customerKey).update(createHash("sha256").update(text).digest("hex")).digest("hex");
}
