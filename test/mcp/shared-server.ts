// The one server the MCP files with the default configuration share (mcp-server and modern-revision,
// whose customers are apart): started by global-setup.ts, each file's wait for its own server was
// most of the suite's time (bench/NOTES.md, "CI time (issue 47)"). A file that needs other settings
// (door-limits, enrich-wait) or other keys (the OAuth files) starts its own.
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import type { Customer, McpServerView } from "./server";

/** What global-setup.ts gives the test files that share its server: its address, keys and the file of its logs. */
interface SharedMcpServer {
  url: string;
  keys: Record<Customer, string>;
  log: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    mcpServer: SharedMcpServer;
  }
}

/** The shared server, in a test file. */
export function sharedMcpServer(): McpServerView {
  const { url, keys, log } = inject("mcpServer");
  return { server: { url, output: () => readFileSync(log, "utf8") }, keys };
}
