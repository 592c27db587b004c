// An assistant connected with OAuth (the consent page at /oauth/authorize): what it may do and how
// much one call may commit without asking. The vocabulary the connections object, the operations
// (GET/DELETE /v2/{env}/me/connections) and the MCP door share.
import * as z from "zod";

/** What a person may let an assistant do: read (estimates, batches, usage), spend credits, erase people. */
export const MCP_SCOPES = ["read", "spend", "erase"] as const;
export type McpScope = (typeof MCP_SCOPES)[number];

/** The highest allowance the consent page takes: far above any one batch, below any float trouble. */
export const MAX_ALLOWANCE_CREDITS = 1_000_000_000;

export const allowanceSchema = z.number().int().min(0).max(MAX_ALLOWANCE_CREDITS);

/** A connection as the object stores it and the door reads it back. */
export const connectionSchema = z.object({
  id: z.string(),
  keyId: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  scopes: z.array(z.enum(MCP_SCOPES)),
  allowanceCredits: allowanceSchema,
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Connection = z.infer<typeof connectionSchema>;

/** What GET /v2/{env}/me/connections lists of each: never the key, the client id or anything secret. */
export const connectionViewSchema = connectionSchema
  .pick({ id: true, clientName: true, scopes: true, createdAt: true, lastUsedAt: true })
  .meta({ id: "Connection" });
export type ConnectionView = z.infer<typeof connectionViewSchema>;

export const viewOf = ({ id, clientName, scopes, createdAt, lastUsedAt }: Connection): ConnectionView => ({
  id,
  clientName,
  scopes,
  createdAt,
  lastUsedAt,
});

const ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** `conn_` and 20 base-36 characters (about 103 bits): unguessable, so a wrong id finds nothing. */
export function newConnectionId(): string {
  let id = "conn_";
  while (id.length < 25) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) {
      // 252 = 7 × 36: rejecting higher bytes keeps every character equally likely.
      if (byte < 252 && id.length < 25) id += ID_ALPHABET[byte % 36];
    }
  }
  return id;
}
