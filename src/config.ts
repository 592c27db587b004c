// Vars arrive as numbers from wrangler.toml but as strings from `wrangler dev --var`,
// so every numeric setting goes through one parser that accepts both.
export interface Config {
  maxBatchItems: number;
  maxBodyBytes: number;
  retryBaseDelaySeconds: number;
  retryMaxDelaySeconds: number;
  batchDeadlineSeconds: number;
  apiKeyCacheTtlSeconds: number;
  tier3: { limit: number; windowSeconds: number };
  tier4: { limit: number; windowSeconds: number };
}

export function readConfig(env: Env): Config {
  return {
    maxBatchItems: whole(env.MAX_BATCH_ITEMS, "MAX_BATCH_ITEMS", 1),
    maxBodyBytes: whole(env.MAX_BODY_BYTES, "MAX_BODY_BYTES", 1),
    retryBaseDelaySeconds: whole(env.RETRY_BASE_DELAY_SECONDS, "RETRY_BASE_DELAY_SECONDS", 0),
    retryMaxDelaySeconds: whole(env.RETRY_MAX_DELAY_SECONDS, "RETRY_MAX_DELAY_SECONDS", 0),
    batchDeadlineSeconds: whole(env.BATCH_DEADLINE_SECONDS, "BATCH_DEADLINE_SECONDS", 1),
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
  };
}

function whole(value: unknown, name: string, min: number): number {
  const parsed = typeof value === "string" ? Number(value.trim()) : value;
  if (typeof parsed !== "number" || !Number.isSafeInteger(parsed) || parsed < min) {
    throw new Error(`config var ${name} must be a whole number >= ${min}`);
  }
  return parsed;
}
