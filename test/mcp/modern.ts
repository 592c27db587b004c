// The 2026-07-28 revision as the tests speak it: the SDK's v2 client (@modelcontextprotocol/client), and
// raw JSON-RPC POSTs with the revision's envelope and headers, for what no SDK client sends on purpose
// (an altered requestState, another customer's, one presented twice) and for the tasks extension.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Customer, McpServerView } from "./server";

export const REVISION = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";

/** A v2 client pinned to the revision (it sends server/discover first); `answer`: how it answers a confirmation. */
export async function modernClient(
  running: McpServerView,
  customer: Customer,
  answer?: "accept" | "decline",
  asked: string[] = [],
): Promise<Client> {
  const client = new Client(
    { name: "mcp-test-v2", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: REVISION } }, capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  if (answer)
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params.message);
      return answer === "accept" ? { action: "accept", content: { confirm: true } } : { action: "decline" };
    });
  const headers = { "x-api-key": running.keys[customer] };
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", running.server.url), { requestInit: { headers } }),
  );
  return client;
}

export interface RawOptions {
  elicitation?: boolean;
  tasks?: boolean;
}

let nextId = 1;

/** One JSON-RPC request of the revision, as a POST with its envelope and headers: the response's JSON-RPC message. */
export async function raw(
  running: McpServerView,
  customer: Customer,
  method: string,
  params: Record<string, unknown>,
  { elicitation = false, tasks = false }: RawOptions = {},
) {
  const capabilities = {
    ...(elicitation ? { elicitation: { form: {} } } : {}),
    ...(tasks ? { extensions: { [TASKS]: {} } } : {}),
  };
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": REVISION,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  };
  // Mcp-Name: the tool's name on tools/call, the task's id on tasks/*.
  const named = params.name ?? params.taskId;
  const name: Record<string, string> = typeof named === "string" ? { "mcp-name": named } : {};
  const response = await fetch(new URL("/mcp", running.server.url), {
    method: "POST",
    headers: {
      "x-api-key": running.keys[customer],
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": REVISION,
      "mcp-method": method,
      ...name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta } }),
  });
  const text = await response.text();
  // A streamed answer (SSE): its last message is the response.
  const body = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? (text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .at(-1)
        ?.slice(6) ?? "null")
    : text;
  return {
    status: response.status,
    sessionId: response.headers.get("mcp-session-id"),
    // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC result, read by the assertions that follow
    message: JSON.parse(body) as { result?: Record<string, any>; error?: { code: number; message: string } },
  };
}

/** tools/call as raw sends it. */
export const rawCall = (
  running: McpServerView,
  customer: Customer,
  name: string,
  args: Record<string, unknown>,
  options: RawOptions & { inputResponses?: Record<string, unknown>; requestState?: string } = {},
) => {
  const { inputResponses, requestState, ...rest } = options;
  return raw(
    running,
    customer,
    "tools/call",
    { name, arguments: args, ...(inputResponses ? { inputResponses } : {}), ...(requestState ? { requestState } : {}) },
    rest,
  );
};

export const ACCEPTED = { confirm_spending: { action: "accept", content: { confirm: true } } };
