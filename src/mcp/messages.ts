// What the door reads of a POST's JSON-RPC messages before the session (and its SDK) sees them: how
// many count as the protocol's own requests, and whether it opens a session.

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The requests (a method and an id) that are not tools/call, each one mcp_protocol unit: initialize,
 * tools/list, ping and any other. A tool call counts as its tool's endpoint type where it runs;
 * notifications and responses (an elicitation's answer) ride on the requests they follow. A message
 * that is no object at all counts as a request: it costs as much to refuse.
 */
export function protocolRequests(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter(
    (message) =>
      !isRecord(message) || (typeof message.method === "string" && "id" in message && message.method !== "tools/call"),
  ).length;
}

/** Whether the body is an initialize request, the one request that opens a session. */
export const isInitialize = (body: unknown): boolean => isRecord(body) && body.method === "initialize" && "id" in body;
