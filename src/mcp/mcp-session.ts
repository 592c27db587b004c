import { DurableObject } from "cloudflare:workers";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { type ApiKeyRecord, apiKeyRecordSchema } from "../keys/api-key";
import { callTool } from "./call-tool";
import { sessionNotFound } from "./json-rpc-error";
import type { ToolContext } from "./tool";
import { listedTools, TOOLS } from "./tools";

/** How long a user has to answer a spending confirmation. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

/**
 * One MCP session (Streamable HTTP): the SDK's server and transport, held in memory by a Durable
 * Object named after the session's customer and id, so every request of the session (a tool call's
 * stream, and the elicitation answer the client POSTs while it waits) reaches the same instance.
 * Nothing is stored: a session outlives neither an eviction nor a deploy, and a client then gets
 * 404, which tells it (MCP spec) to initialize a new one.
 */
export class McpSession extends DurableObject<Env> {
  #transport: WebStandardStreamableHTTPServerTransport | undefined;

  /** Serves one request of the session; `apiKey` is the record the door authenticated this request with. */
  async serve(request: Request, sessionId: string, apiKey: ApiKeyRecord): Promise<Response> {
    if (!this.#transport) {
      if (request.headers.has("mcp-session-id")) {
        return sessionNotFound();
      }
      this.#transport = await this.#open(sessionId);
    }
    return this.#transport.handleRequest(request, {
      authInfo: { token: "", clientId: apiKey.keyId, scopes: [], extra: { apiKey } },
    });
  }

  async #open(sessionId: string) {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      onsessionclosed: () => {
        this.#transport = undefined;
      },
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
          await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress, total, message } });
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
      const caller = { env: this.env, apiKey, environment: apiKey.environment };
      return callTool(tool, caller, request.params.arguments ?? {}, context);
    });
    await server.connect(transport);
    return transport;
  }
}
