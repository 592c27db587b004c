import * as z from "zod";

// Vars arrive as numbers from wrangler.toml but as strings from `wrangler dev --var`:
// a string is read as a number first, then both are held to the same rule.
export const whole = (min: number) => {
  const error = `must be a whole number >= ${min}`;
  return z.preprocess(
    (value) => (typeof value === "string" ? Number(value.trim()) : value),
    z.number({ error }).int({ error }).min(min, { error }),
  );
};

export const url = z
  .string({ error: "must be a URL" })
  .refine((value) => URL.canParse(value), { error: "must be a URL" })
  .transform((value) => value.replace(/\/+$/, ""));

/** A comma-separated list of names, each one of `known`; empty is an empty list. */
export const nameList = <Name extends string>(known: readonly Name[], what: string) => {
  const isKnown = (name: string): name is Name => (known as readonly string[]).includes(name);
  return z.string().transform((value, ctx) => {
    const names = value
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    const unknown = names.filter((name) => !isKnown(name));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `names unknown ${what}(s) ${unknown.join(", ")}; known: ${known.join(", ")}`,
      });
    }
    return names.filter(isKnown);
  });
};

const configSchema = z
  .object({
    MAX_BATCH_ITEMS: whole(1),
    MAX_BODY_BYTES: whole(1),
    RETRY_BASE_DELAY_SECONDS: whole(0),
    RETRY_MAX_DELAY_SECONDS: whole(0),
    BATCH_DEADLINE_SECONDS: whole(1),
    // Counted from when an item is due (see wrangler.toml); shorter only resends more.
    REDRIVE_AFTER_SECONDS: whole(1),
    // At least one full message, or a batch could never send one.
    FAN_OUT_WINDOW_ITEMS: whole(10),
    RETENTION_SECONDS: whole(1),
    IDEMPOTENCY_TTL_SECONDS: whole(86_400),
    WEBHOOK_MAX_ATTEMPTS: whole(1),
    WEBHOOK_TIMEOUT_MS: whole(1),
    // KV refuses a cacheTtl under 30 seconds.
    API_KEY_CACHE_TTL_SECONDS: whole(30),
    TIER_3_LIMIT: whole(1),
    TIER_3_WINDOW_SECONDS: whole(1),
    TIER_4_LIMIT: whole(1),
    TIER_4_WINDOW_SECONDS: whole(1),
    MCP_PROTOCOL_LIMIT: whole(1),
    MCP_PROTOCOL_WINDOW_SECONDS: whole(1),
    MCP_MAX_SESSIONS_PER_KEY: whole(1),
    MCP_SESSION_IDLE_SECONDS: whole(1),
    MCP_ALLOWANCE_CREDITS: whole(0),
    ITEM_MAX_ATTEMPTS: whole(1),
    ENRICHMENT_SATISFIED_CONFIDENCE: whole(0),
    PROVIDER_TIMEOUT_MS: whole(1),
    DOH_URL: url,
    VERDICT_CACHE_TTL_SECONDS: whole(60),
    // KV refuses an expirationTtl under 60 seconds.
    RESULT_CACHE_TTL_SECONDS: whole(60),
    RESULT_CACHE_NOT_FOUND_TTL_SECONDS: whole(60),
    CREDITS_PER_EMAIL: whole(0),
    CREDITS_PER_PHONE: whole(0),
    CREDITS_PER_VERIFICATION: whole(0),
  })
  .refine((vars) => vars.RETRY_BASE_DELAY_SECONDS <= vars.RETRY_MAX_DELAY_SECONDS, {
    error: "must not exceed RETRY_MAX_DELAY_SECONDS",
    path: ["RETRY_BASE_DELAY_SECONDS"],
  })
  .transform((vars) => ({
    maxBatchItems: vars.MAX_BATCH_ITEMS,
    maxBodyBytes: vars.MAX_BODY_BYTES,
    retryBaseDelaySeconds: vars.RETRY_BASE_DELAY_SECONDS,
    retryMaxDelaySeconds: vars.RETRY_MAX_DELAY_SECONDS,
    batchDeadlineSeconds: vars.BATCH_DEADLINE_SECONDS,
    redriveAfterSeconds: vars.REDRIVE_AFTER_SECONDS,
    fanOutWindowItems: vars.FAN_OUT_WINDOW_ITEMS,
    retentionSeconds: vars.RETENTION_SECONDS,
    idempotencyTtlSeconds: vars.IDEMPOTENCY_TTL_SECONDS,
    webhookMaxAttempts: vars.WEBHOOK_MAX_ATTEMPTS,
    webhookTimeoutMs: vars.WEBHOOK_TIMEOUT_MS,
    apiKeyCacheTtlSeconds: vars.API_KEY_CACHE_TTL_SECONDS,
    tier3: { limit: vars.TIER_3_LIMIT, windowSeconds: vars.TIER_3_WINDOW_SECONDS },
    tier4: { limit: vars.TIER_4_LIMIT, windowSeconds: vars.TIER_4_WINDOW_SECONDS },
    mcpProtocol: { limit: vars.MCP_PROTOCOL_LIMIT, windowSeconds: vars.MCP_PROTOCOL_WINDOW_SECONDS },
    mcpSessions: { maxPerKey: vars.MCP_MAX_SESSIONS_PER_KEY, idleMs: vars.MCP_SESSION_IDLE_SECONDS * 1000 },
    mcpAllowanceCredits: vars.MCP_ALLOWANCE_CREDITS,
    itemMaxAttempts: vars.ITEM_MAX_ATTEMPTS,
    prices: {
      email: vars.CREDITS_PER_EMAIL,
      phone: vars.CREDITS_PER_PHONE,
      verification: vars.CREDITS_PER_VERIFICATION,
    },
    enrichment: {
      satisfiedConfidence: vars.ENRICHMENT_SATISFIED_CONFIDENCE,
      providerTimeoutMs: vars.PROVIDER_TIMEOUT_MS,
      dohUrl: vars.DOH_URL,
      verdictCacheTtlSeconds: vars.VERDICT_CACHE_TTL_SECONDS,
      resultCacheTtlSeconds: vars.RESULT_CACHE_TTL_SECONDS,
      resultCacheNotFoundTtlSeconds: vars.RESULT_CACHE_NOT_FOUND_TTL_SECONDS,
    },
  }));

export type Config = z.output<typeof configSchema>;
/** The price list, in credits: per kind of contact an item delivers, and per verification. */
export type Prices = Config["prices"];

/**
 * How every configuration is read: a reader of `schema` (or of `schema()`, made on first use) over the
 * Worker's vars. The Worker gets the same env object on every request of an isolate, so each env is
 * parsed once; a var that does not fit throws, naming it.
 */
export function configOf<Schema extends z.ZodType>(schema: Schema | (() => Schema)): (env: Env) => z.output<Schema> {
  const parsed = new WeakMap<Env, z.output<Schema>>();
  return (env) => {
    let config = parsed.get(env);
    if (config === undefined) {
      config = parseVars(typeof schema === "function" ? schema() : schema, env);
      parsed.set(env, config);
    }
    return config;
  };
}

/** The Worker's own configuration (the vendors', the CRMs' and the webhook hub's are beside their code). */
export const readConfig = configOf(configSchema);

/** Parses vars with `schema`, or throws naming each var that does not fit. */
function parseVars<Schema extends z.ZodType>(schema: Schema, env: Env): z.output<Schema> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new Error(
      result.error.issues.map((issue) => `config var ${issue.path.join(".")} ${issue.message}`).join("; "),
    );
  }
  return result.data;
}
