// One `wrangler dev` (scripts/local-server.ts) for the MCP tests, with one key per customer
// named, so what a test created and charged is that customer's alone; `slow` may make one
// contact_info_request an hour (its second is rate limited, deterministically), `flood` 20 protocol
// requests (initialize, tools/list, ping) an hour, and `defaults` has the deployment's limits.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { withKv } from "../../scripts/kv-store";
import { type LocalServer, startLocalServer } from "../../scripts/local-server";
import { apiKeyWrites, ENDPOINT_TYPES, issueApiKey } from "../../src/tools-api";

const CUSTOMERS = [
  "reader",
  "other",
  "accepts",
  "declines",
  "cancels",
  "cannot_ask",
  "capped",
  "slow",
  "mistaken",
  "flood",
  "defaults",
  "modern",
  "modern_declines",
  "stranger",
  "replayer",
  "over_allowance",
  "zero_allowance",
  "budgeted",
  "tasker",
] as const;
export type Customer = (typeof CUSTOMERS)[number];

/** A server as the tests use it: its address, what it printed, and its keys. */
export interface McpServerView {
  server: Pick<LocalServer, "url" | "output">;
  keys: Record<Customer, string>;
}

/** A server a test started (and stops). */
export interface McpTestServer extends McpServerView {
  server: LocalServer;
}

/**
 * The server; `vars` adds to (or replaces) its configuration, as `wrangler dev --var` does, and `logTo`
 * gets what it prints as well (for the files sharing it).
 */
export async function startMcpTestServer(vars: Record<string, string> = {}, logTo?: string): Promise<McpTestServer> {
  const keys = {} as Record<Customer, string>;
  const server = await startLocalServer({
    prepare: async (state) => {
      const writes: ReturnType<typeof apiKeyWrites> = [];
      for (const customer of CUSTOMERS) {
        const issued = await issueApiKey({ customerId: `cus_mcp_${customer}`, environment: "test" });
        const limit = (type: string) =>
          customer === "slow" ? 1 : customer === "flood" && type === "mcp_protocol" ? 20 : 10_000_000;
        // Its person is asked before every paid call, whatever maxCredits its agent passes.
        if (customer === "zero_allowance") issued.record.mcpAllowanceCredits = 0;
        if (customer !== "defaults")
          issued.record.rateLimits = Object.fromEntries(
            ENDPOINT_TYPES.map((type) => [type, { limit: limit(type), windowSeconds: 3600 }]),
          );
        writes.push(...apiKeyWrites(issued.hash, issued.record));
        keys[customer] = issued.key;
      }
      await withKv({ target: "--local", persistTo: state }, "API_KEYS", (kv) => kv.putAll(writes));
    },
    vars: { RETRY_BASE_DELAY_SECONDS: "1", RETRY_MAX_DELAY_SECONDS: "2", REDRIVE_AFTER_SECONDS: "30", ...vars },
    ...(logTo ? { logTo } : {}),
  });
  return { server, keys };
}

export interface ConnectOptions {
  /**
   * How the client answers a confirmation; absent: the client declares no elicitation capability. An
   * answer the SDK client would refuse to send (`action: "yes"`) goes out as it is with `raw`.
   */
  answer?: (request: ElicitRequest) => ElicitResult;
  raw?: (request: ElicitRequest) => unknown;
  headers?: Record<string, string>;
}

/** The official SDK client, connected over Streamable HTTP to /mcp with `headers` (the key). */
export async function connect(
  server: Pick<LocalServer, "url">,
  { answer, raw, headers = {} }: ConnectOptions,
): Promise<Client> {
  const client = new Client(
    { name: "mcp-test", version: "1.0.0" },
    { capabilities: answer || raw ? { elicitation: { form: {} } } : {} },
  );
  if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request));
  // Protocol's own registration, past the Client's check of its answers: what another client could send.
  if (raw) Protocol.prototype.setRequestHandler.call(client, ElicitRequestSchema, (request) => raw(request) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url), { requestInit: { headers } }));
  return client;
}
