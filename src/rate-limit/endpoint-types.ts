import type { Config } from "../config";
import type { Environment } from "../environment";

export const ENDPOINT_TYPES = ["contact_info_request", "contact_info_status", "rate_limits"] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

export interface RateLimitSetting {
  limit: number;
  windowSeconds: number;
}

/** Per-key overrides, stored on the key's KV record; missing entries use the tier default. */
export type RateLimitOverrides = Partial<Record<EndpointType, RateLimitSetting>>;

export const TIERS = ["Tier 3", "Tier 4"] as const;
type Tier = (typeof TIERS)[number];

// Writes (submit, delete, erasure, the suppression list) and the estimate (which does a submit's work, storing nothing) share the Tier 3 budget; reads of batches and of the account (its privacy records included) share Tier 4 ones.
const ENDPOINTS: Record<EndpointType, { tier: Tier; operations: (environment: Environment) => string[] }> = {
  contact_info_request: {
    tier: "Tier 3",
    operations: (env) => [
      `POST /v2/${env}/person/contact-info`,
      `POST /v2/${env}/person/contact-info/estimate`,
      `DELETE /v2/${env}/person/contact-info/{id}`,
      `POST /v2/${env}/privacy/erasures`,
      `PUT /v2/${env}/privacy/suppressions`,
      `DELETE /v2/${env}/privacy/suppressions/{key}`,
    ],
  },
  contact_info_status: {
    tier: "Tier 4",
    operations: (env) => [
      `GET /v2/${env}/person/contact-info/{id}`,
      `GET /v2/${env}/person/contact-info`,
      `GET /v2/${env}/person/contact-info/{id}/events`,
    ],
  },
  rate_limits: {
    tier: "Tier 4",
    operations: (env) => [
      `GET /v2/${env}/me/rate-limits`,
      `GET /v2/${env}/me/usage`,
      `GET /v2/${env}/privacy/erasures/{id}`,
      `GET /v2/${env}/privacy/suppressions`,
    ],
  },
};

export interface EndpointLimit extends RateLimitSetting {
  endpointType: EndpointType;
  tier: Tier;
  operations: string[];
}

/** The limit in force for one endpoint type: the key's override, else its tier's default. */
function effectiveSetting(type: EndpointType, config: Config, overrides: RateLimitOverrides = {}): RateLimitSetting {
  const { limit, windowSeconds } = overrides[type] ?? (ENDPOINTS[type].tier === "Tier 3" ? config.tier3 : config.tier4);
  return { limit, windowSeconds };
}

export function effectiveSettings(
  config: Config,
  overrides: RateLimitOverrides = {},
): Record<EndpointType, RateLimitSetting> {
  return Object.fromEntries(ENDPOINT_TYPES.map((type) => [type, effectiveSetting(type, config, overrides)])) as Record<
    EndpointType,
    RateLimitSetting
  >;
}

export function endpointLimit(
  type: EndpointType,
  environment: Environment,
  config: Config,
  overrides: RateLimitOverrides = {},
): EndpointLimit {
  const { tier, operations } = ENDPOINTS[type];
  return {
    endpointType: type,
    tier,
    operations: operations(environment),
    ...effectiveSetting(type, config, overrides),
  };
}
