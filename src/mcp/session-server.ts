// The SDK's server and transport for one session, with the tools wired in. Loaded by the session
// object on its first request only (a dynamic import): the SDK's protocol schemas are built when
// this module is evaluated, which no REST request should pay for at startup.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { apiKeyRecordSchema } from "../keys/api-key";
import { callTool } from "./call-tool";
import type { ToolContext } from "./tool";
import { listedTools, TOOLS } from "./tools";

/** How long a user has to answer a spending confirmation. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

export interface SessionTransport {
  handleRequest(
    request: Request,
    options: { authInfo: { token: string; clientId: string; scopes: string[]; extra: Record<string, unknown> } },
  ): Promise<Response>;
}

/** A connected server and transport for session `sessionId`; `onClosed` runs when the client ends the session. */
export async function openSession(env: Env, sessionId: string, onClosed: () => void): Promise<SessionTransport> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => sessionId,
    onsessionclosed: onClosed,
  });
  const server = new Server(
    { name: "contact-info-batch", version: "2.0.0" },
    { capabilities: { tools: {} }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS.find(({ name }) => name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    // The record the door put there, checked again at this boundary rather than cast.
    const apiKey = apiKeyRecordSchema.parse(extra.authInfo?.extra?.apiKey);
    const progressToken = request.params._meta?.progressToken;
    const context: ToolContext = {
      origin: new URL(extra.requestInfo?.url ?? "https://invalid").origin,
      progress: async (progress, total, message) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress, total, message },
        });
      },
      confirm: async (message) => {
        if (!server.getClientCapabilities()?.elicitation) return null;
        const answer = await server.elicitInput(
          {
            mode: "form",
            message,
            requestedSchema: {
              type: "object",
              properties: { confirm: { type: "boolean", title: "Spend these credits", default: false } },
              required: ["confirm"],
            },
          },
          { relatedRequestId: extra.requestId, timeout: CONFIRM_TIMEOUT_MS },
        );
        if (answer.action === "accept") return answer.content?.confirm === true ? "accept" : "decline";
        return answer.action;
      },
    };
    return callTool(tool, { env, apiKey, environment: apiKey.environment }, request.params.arguments ?? {}, context);
  });
  await server.connect(transport);
  return transport;
}
