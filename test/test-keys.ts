// Test keys: fresh customers' API keys written to the real local KV the Worker reads, and
// whose batches they are, for the helpers that read a batch straight from its object.
import { env } from "cloudflare:workers";
import type { Environment } from "../src/base/environment";
import type { Jurisdiction } from "../src/base/jurisdiction";
import type { BatchOwner } from "../src/base/tenant";
import { apiKeyWrites, issueApiKey } from "../src/keys/api-key";
import type { RateLimitOverrides } from "../src/rate-limit/endpoint-types";

const owners = new Map<string, BatchOwner>();

/** A fresh key for a fresh customer, written to the real local KV the Worker reads. */
export async function createKey(
  options: {
    environment?: Environment;
    customerId?: string;
    rateLimits?: RateLimitOverrides;
    jurisdiction?: Jurisdiction;
  } = {},
) {
  const { key, hash, record } = await issueApiKey({
    customerId: options.customerId ?? `cus_${crypto.randomUUID()}`,
    environment: options.environment ?? "test",
    name: "test key",
    jurisdiction: options.jurisdiction,
  });
  if (options.rateLimits) record.rateLimits = options.rateLimits;
  for (const { key, value, metadata } of apiKeyWrites(hash, record)) await env.API_KEYS.put(key, value, { metadata });
  owners.set(key, { customerId: record.customerId, environment: record.environment });
  return { key, hash, record };
}

/** The customer and environment of a key made by createKey. */
export function ownerOf(key: string): BatchOwner {
  const owner = owners.get(key);
  if (!owner) throw new Error("reading a batch directly needs a key made by createKey");
  return owner;
}
