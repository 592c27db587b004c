// One `wrangler dev` (scripts/local-server.ts) for the MCP tests, with one key per customer
// named, so what a test created and charged is that customer's alone; `slow` may make one
// contact_info_request an hour (its second is rate limited, deterministically).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { withKv } from "../../scripts/kv-store";
import { type LocalServer, startLocalServer } from "../../scripts/local-server";
import { apiKeyWrites, ENDPOINT_TYPES, issueApiKey } from "../../src/tools-api";

const CUSTOMERS = ["reader", "other", "accepts", "declines", "cancels", "cannot_ask", "capped", "slow"] as const;
export type Customer = (typeof CUSTOMERS)[number];

export interface McpTestServer {
  server: LocalServer;
  keys: Record<Customer, string>;
}

/** The server; `vars` adds to (or replaces) its configuration, as `wrangler dev --var` does. */
export async function startMcpTestServer(vars: Record<string, string> = {}): Promise<McpTestServer> {
  const keys = {} as Record<Customer, string>;
  const server = await startLocalServer({
    prepare: async (state) => {
      const writes: ReturnType<typeof apiKeyWrites> = [];
      for (const customer of CUSTOMERS) {
        const issued = await issueApiKey({ customerId: `cus_mcp_${customer}`, environment: "test" });
        issued.record.rateLimits = Object.fromEntries(
          ENDPOINT_TYPES.map((type) => [type, { limit: customer === "slow" ? 1 : 10_000_000, windowSeconds: 3600 }]),
        );
        writes.push(...apiKeyWrites(issued.hash, issued.record));
        keys[customer] = issued.key;
      }
      await withKv({ target: "--local", persistTo: state }, "API_KEYS", (kv) => kv.putAll(writes));
    },
    vars: { RETRY_BASE_DELAY_SECONDS: "1", RETRY_MAX_DELAY_SECONDS: "2", REDRIVE_AFTER_SECONDS: "30", ...vars },
  });
  return { server, keys };
}

export interface ConnectOptions {
  /** How the client answers a confirmation; absent: the client declares no elicitation capability. */
  answer?: (request: ElicitRequest) => ElicitResult;
  headers?: Record<string, string>;
}

/** The official SDK client, connected over Streamable HTTP to /mcp with `headers` (the key). */
export async function connect(server: LocalServer, { answer, headers = {} }: ConnectOptions): Promise<Client> {
  const client = new Client(
    { name: "mcp-test", version: "1.0.0" },
    { capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request));
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url), { requestInit: { headers } }));
  return client;
}
