import type { McpScope } from "../../connections/connection";
import type { McpPrincipal } from "./grant-principal";

/**
 * What each tool needs of a connection's scopes: read (estimates and reads), spend (what creates
 * batches or changes credits: feedback refunds), erase (erasure and suppression). A key has all three.
 */
export const TOOL_SCOPES: Readonly<Record<string, McpScope>> = {
  estimate_contact_info: "read",
  enrich_contact_info: "spend",
  start_contact_info_batch: "spend",
  get_contact_info_batch: "read",
  list_contact_info_batches: "read",
  get_usage: "read",
  get_rate_limits: "read",
  erase_person: "erase",
  suppress_person: "erase",
  report_feedback: "spend",
};

/**
 * The scope a tools/call of `tool` lacks for this caller, or null when it may run. A tool this map
 * does not know needs every scope (fail closed): a new tool is declared here with the one it needs.
 */
export function missingScope(principal: Pick<McpPrincipal, "scopes">, tool: string): McpScope | null {
  const needed = Object.hasOwn(TOOL_SCOPES, tool) ? TOOL_SCOPES[tool] : undefined;
  if (needed === undefined) return principal.scopes.has("erase") && principal.scopes.has("spend") ? null : "spend";
  return principal.scopes.has(needed) ? null : needed;
}
