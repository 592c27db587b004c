// Who is calling the MCP tools, and what they may do: the door makes one per request. An API key may do
// everything its REST twin may; an OAuth grant (src/mcp/oauth/) carries the scopes and allowance its person
// chose on the consent page.
import * as z from "zod";
import type { Config } from "../base/config";
import { MCP_SCOPES, type McpScope } from "../connections/connection";
import { type ApiKeyRecord, apiKeyRecordSchema } from "../keys/api-key";

export interface McpPrincipal {
  apiKey: ApiKeyRecord;
  scopes: ReadonlySet<McpScope>;
  /** The credits one tool call may commit without asking its person (0: always ask). */
  allowanceCredits: number;
  /** The OAuth connection the call came through; absent for an API key. */
  connectionId?: string;
}

/** An API key's principal: every scope, and the key's own allowance, else the deployment's. */
export const keyPrincipal = (apiKey: ApiKeyRecord, config: Pick<Config, "mcpAllowanceCredits">): McpPrincipal => ({
  apiKey,
  scopes: new Set(MCP_SCOPES),
  allowanceCredits: apiKey.mcpAllowanceCredits ?? config.mcpAllowanceCredits,
});

/** A principal as it crosses to the 2025 session's object (RPC) and back through the SDK's authInfo: checked, not cast. */
const principalWireSchema = z.object({
  apiKey: apiKeyRecordSchema,
  scopes: z.array(z.enum(MCP_SCOPES)),
  allowanceCredits: z.int().min(0),
  connectionId: z.string().optional(),
});
export type PrincipalWire = z.infer<typeof principalWireSchema>;

export const toWire = ({ scopes, ...rest }: McpPrincipal): PrincipalWire => ({ ...rest, scopes: [...scopes] });

export const fromWire = (wire: unknown): McpPrincipal => {
  const { scopes, ...rest } = principalWireSchema.parse(wire);
  return { ...rest, scopes: new Set(scopes) };
};
