// The MCP server of the 2026-07-28 revision (stateless: no session, no initialize; server/discover,
// `_meta` on every request, `resultType` on every result, MRTR for questions, the tasks extension), on
// the official SDK's v2 line: one server per request, made here, served by its createMcpHandler, which
// checks the envelope and the Mcp-Method/Mcp-Name headers against the body. Loaded by the door on the
// first MCP request of an isolate only (a dynamic import), as the 2025 session server is.
import {
  createMcpHandler,
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
  Server,
} from "@modelcontextprotocol/server";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/server/validators/cf-worker";
import { admit } from "../operations/admit";
import type { Caller } from "../operations/caller";
import type { EndpointType } from "../rate-limit/endpoint-types";
import { callTool } from "./call-tool";
import { mrtrConfirm, stateCodec } from "./mrtr-confirm";
import type { McpPrincipal } from "./principal";
import { SERVER_INFO } from "./server-info";
import { TASKS_EXTENSION, taskHandlers } from "./task-methods";
import { listedTools, TOOLS } from "./tools";

/** How long a client may keep tools/list: the tools change only with a deploy. */
const TOOLS_TTL_MS = 60 * 60_000;

/** Whether the request is one of the 2025 revisions' (no `_meta` envelope): the session server answers it. */
export const isLegacy = (request: Request, body: unknown): Promise<boolean> => isLegacyRequest(request, body);

function serverFor(env: Env, principal: McpPrincipal, origin: string, counted: Record<EndpointType, string[]>): Server {
  const { apiKey } = principal;
  const caller: Caller = { env, apiKey, environment: apiKey.environment };
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, extensions: { [TASKS_EXTENSION]: {} } },
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    cacheHints: { "tools/list": { ttlMs: TOOLS_TTL_MS, cacheScope: "public" } },
    requestState: { verify: (state, ctx) => stateCodec(env, apiKey).verify(state, ctx) },
  });
  server.setRequestHandler("tools/list", () => ({ tools: listedTools() }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const tool = TOOLS.find(({ name }) => name === request.params.name);
    if (!tool) {
      // Not a tool call of any tool's endpoint type: the protocol's own (the door counted all but tool calls).
      await admit(caller, "mcp_protocol");
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    const args = request.params.arguments ?? {};
    const capabilities = server.getClientCapabilities();
    const progressToken = request.params._meta?.progressToken;
    const result = await callTool(tool, caller, args, {
      origin,
      principal,
      counted,
      tasks: capabilities?.extensions?.[TASKS_EXTENSION] !== undefined,
      confirm: mrtrConfirm(ctx, {
        tool: tool.name,
        args,
        apiKey,
        env,
        canAsk: capabilities?.elicitation !== undefined,
      }),
      progress: async (progress, total, message) => {
        if (progressToken === undefined) return;
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress, total, message },
        });
      },
    });
    // A task handle (resultType "task") is the tasks extension's, outside the core result types the SDK names.
    return result as Awaited<ReturnType<typeof callTool>> & { content: [] };
  });
  taskHandlers(server, caller, principal);
  return server;
}

/** Serves one 2026-07-28 request of `principal`, whose body the door read (`body`). */
export function serveModern(
  request: Request,
  env: Env,
  principal: McpPrincipal,
  body: unknown,
  counted: Record<EndpointType, string[]>,
): Promise<Response> {
  const origin = new URL(request.url).origin;
  const handler = createMcpHandler(() => serverFor(env, principal, origin, counted), { legacy: "reject" });
  return handler.fetch(request, { parsedBody: body });
}
