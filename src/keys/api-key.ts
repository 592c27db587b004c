// Shared by the Worker and the key tool (scripts/keys.ts runs it under Node), so
// it uses only Web Crypto and modules without Worker bindings.
import * as z from "zod";
import { ENVIRONMENTS, type Environment } from "../base/environment";
import { JURISDICTIONS, type Jurisdiction } from "../base/jurisdiction";
import { sha256Hex } from "../base/sha256";
import { ENDPOINT_TYPES } from "../rate-limit/endpoint-types";
import { generateWebhookSecret } from "../webhooks/signature";

const rateLimitSettingSchema = z.object({
  limit: z.number().int().nonnegative(),
  windowSeconds: z.number().int().positive(),
});

/** A key record as KV stores it; read back through this schema, since a hand edit may have written it. */
export const apiKeyRecordSchema = z.object({
  keyId: z.string(),
  customerId: z.string(),
  environment: z.enum(ENVIRONMENTS),
  name: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
  rateLimits: z.partialRecord(z.enum(ENDPOINT_TYPES), rateLimitSettingSchema).optional(),
  /** Signs this key's webhooks (Standard Webhooks, `whsec_…`); shown once, at creation. */
  webhookSecret: z.string().optional(),
  /** Where the customer's objects live (`eu`); absent means no restriction. */
  jurisdiction: z.enum(JURISDICTIONS).optional(),
  /** The credits one MCP tool call may commit without asking its person; absent: MCP_ALLOWANCE_CREDITS. */
  mcpAllowanceCredits: z.number().int().nonnegative().optional(),
  /** The operator's cap on what this key's batches may charge per UTC month, inside the customer's budget. */
  monthlyCredits: z.number().int().min(0).optional(),
});
export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;

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

const generateKeyId = (): string => `key_${randomBase62(16)}`;

/**
 * What the key tool sends the admin API (`POST /admin/revocations`) so the key's
 * limiter refuses it at once: the key id and whose limiter that is.
 */
export const revocationSchema = apiKeyRecordSchema.pick({
  keyId: true,
  customerId: true,
  environment: true,
  jurisdiction: true,
});
export type Revocation = z.infer<typeof revocationSchema>;

/** What KV finds a key record by: the key itself is never stored. */
export const hashApiKey = (apiKey: string): Promise<string> => sha256Hex(apiKey);

/**
 * The KV entries that store a key record: the only writer of them, for the key
 * tool and the tests alike. The id entry carries the record, less its webhook
 * secret, as metadata so listing keys is a single KV call.
 */
export function apiKeyWrites(
  hash: string,
  record: ApiKeyRecord,
): { key: string; value: string; metadata?: Omit<ApiKeyRecord, "webhookSecret"> }[] {
  const { webhookSecret: _secret, ...listed } = record;
  return [
    { key: kvKey.byHash(hash), value: JSON.stringify(record) },
    { key: kvKey.byId(record.keyId), value: hash, metadata: listed },
  ];
}

/** A new key and what KV stores for it. The key is shown once and never kept. */
export async function issueApiKey(options: {
  customerId: string;
  environment: Environment;
  name?: string;
  now?: Date;
  jurisdiction?: Jurisdiction;
}) {
  const key = generateApiKey(options.environment);
  const hash = await hashApiKey(key);
  const record: ApiKeyRecord = {
    keyId: generateKeyId(),
    customerId: options.customerId,
    environment: options.environment,
    name: options.name ?? "",
    createdAt: (options.now ?? new Date()).toISOString(),
    webhookSecret: generateWebhookSecret(),
    ...(options.jurisdiction ? { jurisdiction: options.jurisdiction } : {}),
  };
  return { key, hash, record };
}
