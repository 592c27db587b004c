// A request whose params its method's schema refuses (`tools/call` with `arguments` null or an array)
// is the client's mistake: JSON-RPC -32602 naming the field, where the SDK would throw its schema's
// error as -32603 with the whole validation dump.
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

// The requests this server answers (session-server.ts), each as the SDK parses it.
type IssuePath = readonly PropertyKey[];
type Check = {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: IssuePath; message: string }[] } };
};
const SCHEMAS = new Map<string, Check>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
]);

/** The -32602 answer to `message` if its params do not fit its method; undefined for anything else. */
export function invalidParams(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const parsed = SCHEMAS.get(message.method)?.safeParse(message);
  if (!parsed || parsed.success) return undefined;
  const issue = parsed.error?.issues[0];
  const field =
    issue?.path
      .filter((part) => part !== "params")
      .map(String)
      .join(".") || "params";
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `Invalid params: ${field}: ${issue?.message ?? "does not fit the method"}`,
      data: { field },
    },
  };
}
