// What the MCP tests share: a connected client per customer, a tool call and its error, the REST
// answer to compare with, and what a customer holds (batches, credits charged).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { type Customer, connect, type McpServerView } from "./server";

export const ADA = { firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" };
export const GRACE = { linkedinUrl: "https://www.linkedin.com/in/grace-hopper" };

/** An initialize request as a client POSTs it, for the tests that speak HTTP without the SDK. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** How the client answers a spending confirmation; none: it declares no elicitation capability. */
export type Answer = "accept" | "decline" | "cancel";

/** An SDK client for `customer`'s key, remembered in `clients` (to close), recording each question in `asked`. */
export async function clientFor(
  running: McpServerView,
  clients: Client[],
  customer: Customer,
  answer?: Answer,
  asked: string[] = [],
) {
  const client = await connect(running.server, {
    headers: { "x-api-key": running.keys[customer] },
    ...(answer
      ? {
          answer: (request) => {
            asked.push(request.params.message);
            return answer === "accept" ? { action: "accept", content: { confirm: true } } : { action: answer };
          },
        }
      : {}),
  });
  clients.push(client);
  return client;
}

export const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** A tool error's {code, title, detail, …}, from its text content. */
export function errorOf(result: CallToolResult) {
  expect(result.isError).toBe(true);
  const [content] = result.content;
  return JSON.parse(content?.type === "text" ? content.text : "null");
}

/** The REST answer (JSON) to `path` under /v2/test, with `customer`'s key. */
export const restCall = (running: McpServerView, customer: Customer, path: string, init: RequestInit = {}) =>
  fetch(`${running.server.url}/v2/test${path}`, {
    ...init,
    headers: { "x-api-key": running.keys[customer], "content-type": "application/json" },
  }).then((response) => response.json());

/** What a customer has: its batches, and the credits charged to it. */
export async function holdings(client: Client) {
  const list = (await call(client, "list_contact_info_batches")).structuredContent as { batches: { id: string }[] };
  const usage = (await call(client, "get_usage")).structuredContent as { days: { credits: number }[] };
  return { batches: list.batches.length, credits: usage.days.reduce((sum, day) => sum + day.credits, 0) };
}
