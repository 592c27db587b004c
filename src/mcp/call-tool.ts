import { log, logError } from "../base/log";
import { internalError } from "../http/errors";
import { ApiError, MAX_LISTED_ERRORS, type ProblemInit } from "../http/problem";
import { admit } from "../operations/admit";
import type { Caller } from "../operations/caller";
import { rateLimited } from "../rate-limit/rate-limited";
import { ProtocolAnswer } from "./protocol-answer";
import { insufficientScope, ToolRefusal } from "./refusal";
import type { ToolContext, ToolDeclaration } from "./tool";

/** A tool's failure as MCP carries it: isError, with {code, title, detail, …} as text (not structuredContent, which the output schema governs). */
function toolError(fields: Record<string, unknown>) {
  return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(fields) }] };
}

/** A problem as a tool error: the problem body's fields but status, type and requestId. */
function problemError({ code, title, detail, errors, extensions }: ProblemInit) {
  return toolError({
    code,
    title,
    detail,
    ...(errors ? { errors: errors.slice(0, MAX_LISTED_ERRORS), errorCount: errors.length } : {}),
    ...extensions,
  });
}

/**
 * Runs one tool call as its REST route would: refused (insufficient_scope) if the caller may not, counted first against its operation's
 * endpoint type (a limited call does nothing and answers rate_limited with retryAfterSeconds),
 * then the operation; its problems become tool errors with the same codes. Logs carry the
 * tool, the key's id and the outcome, never an argument.
 */
export async function callTool(
  tool: ToolDeclaration,
  caller: Caller,
  args: Record<string, unknown>,
  context: ToolContext,
) {
  const fields = { tool: tool.name, keyId: caller.apiKey.keyId, environment: caller.environment };
  try {
    if (!context.principal.scopes.has(tool.scope)) throw insufficientScope(tool.scope);
    const { endpointType } = tool.operation;
    const admitted = await admit(caller, endpointType, { withUsage: tool.withUsage ?? false });
    if (!admitted.decision.allowed) throw rateLimited(endpointType, admitted.decision);
    const result = await tool.run(caller, args, context, admitted);
    if (result instanceof ProtocolAnswer) {
      log("mcp_tool_call", { ...fields, outcome: result.result.resultType });
      return result.result;
    }
    log("mcp_tool_call", { ...fields, outcome: "ok" });
    return {
      content: [{ type: "text" as const, text: JSON.stringify(result) }],
      structuredContent: result as Record<string, unknown>,
    };
  } catch (error) {
    if (error instanceof ProtocolAnswer) {
      log("mcp_tool_call", { ...fields, outcome: error.result.resultType });
      return error.result;
    }
    if (error instanceof ApiError) {
      log("mcp_tool_call", { ...fields, outcome: error.init.code });
      return problemError(error.init);
    }
    if (error instanceof ToolRefusal) {
      log("mcp_tool_call", { ...fields, outcome: error.code });
      return toolError({ code: error.code, title: error.title, detail: error.message, ...error.extensions });
    }
    logError("mcp_tool_failed", error, fields);
    return problemError(internalError().init);
  }
}
