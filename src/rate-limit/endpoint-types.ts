import type { Config } from "../base/config";

export const ENDPOINT_TYPES = ["contact_info_request", "contact_info_status", "rate_limits", "mcp_protocol"] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

export interface RateLimitSetting {
  limit: number;
  windowSeconds: number;
}

/** Per-key overrides, stored on the key's KV record; missing entries use the tier default. */
export type RateLimitOverrides = Partial<Record<EndpointType, RateLimitSetting>>;

/** What counts as mcp_protocol, as GET /me/rate-limits lists it (the REST types list their routes). */
export const MCP_PROTOCOL_OPERATIONS = [
  "POST /mcp: every JSON-RPC request but tools/call (initialize, tools/list, ping, …)",
];

export const TIERS = ["Tier 3", "Tier 4", "MCP"] as const;
type Tier = (typeof TIERS)[number];

// Writes (submit, delete, erasure, the suppression list) and the estimate (which does a submit's work, storing nothing)
// share the Tier 3 budget; reads of batches and of the account (its privacy records included) share Tier 4 ones.
// Which type a call counts as is said by its operation (operation.ts), once: a route's rateLimit middleware
// and an MCP tool's call both read it there, so a tool counts as its REST route does. Every other MCP
// request (initialize, tools/list, ping, ...) is the protocol's own chatter, a generous budget of its own
// so that it cannot be used to flood the door.
const TIER_OF: Record<EndpointType, Tier> = {
  contact_info_request: "Tier 3",
  contact_info_status: "Tier 4",
  rate_limits: "Tier 4",
  mcp_protocol: "MCP",
};

const tierDefault = (tier: Tier, config: Config): RateLimitSetting =>
  tier === "Tier 3" ? config.tier3 : tier === "Tier 4" ? config.tier4 : config.mcpProtocol;

export const tierOf = (type: EndpointType): Tier => TIER_OF[type];

export interface EndpointLimit extends RateLimitSetting {
  endpointType: EndpointType;
  tier: Tier;
  operations: string[];
}

/** The limit in force for one endpoint type: the key's override, else its tier's default. */
function effectiveSetting(type: EndpointType, config: Config, overrides: RateLimitOverrides = {}): RateLimitSetting {
  const { limit, windowSeconds } = overrides[type] ?? tierDefault(TIER_OF[type], config);
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

/** One endpoint type's limit in force, with the operations (routes) that count as it. */
export function endpointLimit(
  type: EndpointType,
  operations: string[],
  config: Config,
  overrides: RateLimitOverrides = {},
): EndpointLimit {
  return { endpointType: type, tier: TIER_OF[type], operations, ...effectiveSetting(type, config, overrides) };
}
