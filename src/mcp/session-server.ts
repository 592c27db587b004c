// The SDK's server and transport for one session, with the tools wired in. Loaded by the session
// object on its first request only (a dynamic import): the SDK's protocol schemas are built when
// this module is evaluated, which no REST request should pay for at startup.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type MessageExtraInfo,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import * as z from "zod";
import { logError } from "../base/log";
import { admit } from "../operations/admit";
import type { EndpointType } from "../rate-limit/endpoint-types";
import { callTool } from "./call-tool";
import { askToConfirm, CONFIRM_FORM } from "./confirmation";
import { invalidParams } from "./invalid-params";
import { fromWire } from "./principal";
import { SERVER_INFO } from "./server-info";
import type { ToolContext } from "./tool";
import { listedTools, TOOLS } from "./tools";

/** How long a user has to answer a spending confirmation. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

export interface SessionTransport {
  handleRequest(
    request: Request,
    options: {
      parsedBody?: unknown;
      authInfo: { token: string; clientId: string; scopes: string[]; extra: Record<string, unknown> };
    },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** The principal the door authenticated this message's request with, checked again at this boundary rather than cast. */
const principalOf = (extra: MessageExtraInfo | undefined) => fromWire(extra?.authInfo?.extra?.principal);

const callerOf = (env: Env, extra: MessageExtraInfo | undefined) => {
  const { apiKey } = principalOf(extra);
  return { env, apiKey, environment: apiKey.environment };
};

/** A connected server and transport for session `sessionId`; `onClosed` runs when the client ends the session. */
export async function openSession(
  env: Env,
  sessionId: string,
  counted: Record<EndpointType, string[]>,
  onClosed: () => void,
): Promise<SessionTransport> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => sessionId,
    onsessionclosed: onClosed,
  });
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const caller = callerOf(env, extra);
    const tool = TOOLS.find(({ name }) => name === request.params.name);
    if (!tool) {
      // Not a tool call of any tool's endpoint type: the protocol's own (the door counted all but tool calls).
      await admit(caller, "mcp_protocol");
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    const progressToken = request.params._meta?.progressToken;
    const context: ToolContext = {
      origin: new URL(extra.requestInfo?.url ?? "https://invalid").origin,
      principal: principalOf(extra),
      tasks: false,
      counted,
      progress: async (progress, total, message) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress, total, message },
        });
      },
      confirm: async ({ message }) => {
        if (!server.getClientCapabilities()?.elicitation) return null;
        const answer = await askToConfirm(async (again) => {
          try {
            const params = {
              mode: "form" as const,
              message: again ? `That answer could not be read; please answer again. ${message}` : message,
              requestedSchema: CONFIRM_FORM,
            };
            // The answer as sent (z.unknown): readConfirmation, not the SDK, decides what it says.
            const answered = await server.request({ method: "elicitation/create", params }, z.unknown(), {
              relatedRequestId: extra.requestId,
              timeout: CONFIRM_TIMEOUT_MS,
            });
            return { answered };
          } catch (error) {
            const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
            return { failed: timedOut ? "timeout" : "error" };
          }
        });
        return { answer };
      },
    };
    return callTool(tool, caller, request.params.arguments ?? {}, context);
  });
  await server.connect(transport);
  // Requests whose params do not fit are answered here, before the SDK's parse would make them -32603.
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refusal = invalidParams(message);
    if (!refusal) return deliver?.(message, extra);
    const counted = "method" in message && message.method === "tools/call";
    void (async () => {
      if (counted) await admit(callerOf(env, extra), "mcp_protocol");
      await transport.send(refusal);
    })().catch((error: unknown) => logError("mcp_refusal_failed", error, { sessionId }));
  };
  return transport;
}
