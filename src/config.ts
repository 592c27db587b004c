// Vars arrive as numbers from wrangler.toml but as strings from `wrangler dev --var`,
// so every numeric setting goes through one parser that accepts both.
export const PROVIDER_NAMES = ["directory", "pattern", "hunter", "pdl"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface Config {
  maxBatchItems: number;
  maxBodyBytes: number;
  retryBaseDelaySeconds: number;
  retryMaxDelaySeconds: number;
  batchDeadlineSeconds: number;
  redriveAfterSeconds: number;
  retentionSeconds: number;
  idempotencyTtlSeconds: number;
  webhookMaxAttempts: number;
  webhookTimeoutMs: number;
  apiKeyCacheTtlSeconds: number;
  tier3: { limit: number; windowSeconds: number };
  tier4: { limit: number; windowSeconds: number };
  itemMaxAttempts: number;
  enrichment: {
    providers: ProviderName[];
    satisfiedConfidence: number;
    providerTimeoutMs: number;
    dohUrl: string;
    hunterApiUrl: string;
    pdlApiUrl: string;
    resultCacheTtlSeconds: number;
    resultCacheNotFoundTtlSeconds: number;
  };
}

// The Worker gets the same env object on every request of an isolate: parse it once.
const parsed = new WeakMap<Env, Config>();

export function readConfig(env: Env): Config {
  let config = parsed.get(env);
  if (!config) parsed.set(env, (config = parseConfig(env)));
  return config;
}

function parseConfig(env: Env): Config {
  return {
    maxBatchItems: whole(env.MAX_BATCH_ITEMS, "MAX_BATCH_ITEMS", 1),
    maxBodyBytes: whole(env.MAX_BODY_BYTES, "MAX_BODY_BYTES", 1),
    retryBaseDelaySeconds: whole(env.RETRY_BASE_DELAY_SECONDS, "RETRY_BASE_DELAY_SECONDS", 0),
    retryMaxDelaySeconds: whole(env.RETRY_MAX_DELAY_SECONDS, "RETRY_MAX_DELAY_SECONDS", 0),
    batchDeadlineSeconds: whole(env.BATCH_DEADLINE_SECONDS, "BATCH_DEADLINE_SECONDS", 1),
    // Meant to exceed an item's whole retry chain (see wrangler.toml); shorter only resends more.
    redriveAfterSeconds: whole(env.REDRIVE_AFTER_SECONDS, "REDRIVE_AFTER_SECONDS", 1),
    retentionSeconds: whole(env.RETENTION_SECONDS, "RETENTION_SECONDS", 1),
    idempotencyTtlSeconds: whole(env.IDEMPOTENCY_TTL_SECONDS, "IDEMPOTENCY_TTL_SECONDS", 86_400),
    webhookMaxAttempts: whole(env.WEBHOOK_MAX_ATTEMPTS, "WEBHOOK_MAX_ATTEMPTS", 1),
    webhookTimeoutMs: whole(env.WEBHOOK_TIMEOUT_MS, "WEBHOOK_TIMEOUT_MS", 1),
    // KV refuses a cacheTtl under 30 seconds.
    apiKeyCacheTtlSeconds: whole(env.API_KEY_CACHE_TTL_SECONDS, "API_KEY_CACHE_TTL_SECONDS", 30),
    tier3: {
      limit: whole(env.TIER_3_LIMIT, "TIER_3_LIMIT", 1),
      windowSeconds: whole(env.TIER_3_WINDOW_SECONDS, "TIER_3_WINDOW_SECONDS", 1),
    },
    tier4: {
      limit: whole(env.TIER_4_LIMIT, "TIER_4_LIMIT", 1),
      windowSeconds: whole(env.TIER_4_WINDOW_SECONDS, "TIER_4_WINDOW_SECONDS", 1),
    },
    itemMaxAttempts: whole(env.ITEM_MAX_ATTEMPTS, "ITEM_MAX_ATTEMPTS", 1),
    enrichment: {
      providers: providerList(env.ENRICHMENT_PROVIDERS),
      satisfiedConfidence: whole(env.ENRICHMENT_SATISFIED_CONFIDENCE, "ENRICHMENT_SATISFIED_CONFIDENCE", 0),
      providerTimeoutMs: whole(env.PROVIDER_TIMEOUT_MS, "PROVIDER_TIMEOUT_MS", 1),
      dohUrl: url(env.DOH_URL, "DOH_URL"),
      hunterApiUrl: url(env.HUNTER_API_URL, "HUNTER_API_URL"),
      pdlApiUrl: url(env.PDL_API_URL, "PDL_API_URL"),
      // KV refuses an expirationTtl under 60 seconds.
      resultCacheTtlSeconds: whole(env.RESULT_CACHE_TTL_SECONDS, "RESULT_CACHE_TTL_SECONDS", 60),
      resultCacheNotFoundTtlSeconds: whole(env.RESULT_CACHE_NOT_FOUND_TTL_SECONDS, "RESULT_CACHE_NOT_FOUND_TTL_SECONDS", 60),
    },
  };
}

function providerList(value: string): ProviderName[] {
  const names = value.split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(PROVIDER_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`ENRICHMENT_PROVIDERS names unknown provider(s) ${unknown.join(", ")}; known: ${PROVIDER_NAMES.join(", ")}`);
  return names as ProviderName[];
}

function url(value: string, name: string): string {
  if (!URL.canParse(value)) throw new Error(`config var ${name} must be a URL`);
  return value.replace(/\/+$/, "");
}

function whole(value: unknown, name: string, min: number): number {
  const parsed = typeof value === "string" ? Number(value.trim()) : value;
  if (typeof parsed !== "number" || !Number.isSafeInteger(parsed) || parsed < min) {
    throw new Error(`config var ${name} must be a whole number >= ${min}`);
  }
  return parsed;
}
