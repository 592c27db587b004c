// Shared by the Worker and the key tool (scripts/keys.ts runs it under Node), so
// it uses only Web Crypto and type-only imports.
import type { Environment } from "../environment";
import type { RateLimitOverrides } from "../rate-limit/endpoint-types";
import { generateWebhookSecret } from "../webhooks/signature";

export interface ApiKeyRecord {
  keyId: string;
  customerId: string;
  environment: Environment;
  name: string;
  createdAt: string;
  revokedAt?: string;
  rateLimits?: RateLimitOverrides;
  /** Signs this key's webhooks (Standard Webhooks, `whsec_…`); shown once, at creation. */
  webhookSecret?: string;
}

/** `ck_<environment>_` then 32 base62 characters: about 190 bits of randomness. */
export const API_KEY_PATTERN = /^ck_(test|live)_[A-Za-z0-9]{32}$/;

/** KV key schema of the API_KEYS namespace; docs/storage.md describes it. */
export const kvKey = {
  /** The key record, found by the SHA-256 of the API key: the key itself is never stored. */
  byHash: (sha256Hex: string) => `apikey:${sha256Hex}`,
  /** keyId → SHA-256 of the key, so operators can list and revoke by id. */
  byId: (keyId: string) => `keyid:${keyId}`,
};

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      // 248 = 4 × 62: rejecting higher bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const generateApiKey = (environment: Environment): string => `ck_${environment}_${randomBase62(32)}`;

export const generateKeyId = (): string => `key_${randomBase62(16)}`;

export async function hashApiKey(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(apiKey));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A new key and what KV stores for it. The key is shown once and never kept. */
export async function issueApiKey(options: { customerId: string; environment: Environment; name?: string; now?: Date }) {
  const key = generateApiKey(options.environment);
  const hash = await hashApiKey(key);
  const record: ApiKeyRecord = {
    keyId: generateKeyId(),
    customerId: options.customerId,
    environment: options.environment,
    name: options.name ?? "",
    createdAt: (options.now ?? new Date()).toISOString(),
    webhookSecret: generateWebhookSecret(),
  };
  return { key, hash, record };
}
