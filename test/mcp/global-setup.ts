// Starts the MCP suite's shared server (shared-server.ts) and gives its files the address, keys and logs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startMcpTestServer } from "./server";

export default async function startSharedServer(project: TestProject) {
  const logs = mkdtempSync(join(tmpdir(), "mcp-server-"));
  const log = join(logs, "server.log");
  const { server, keys } = await startMcpTestServer({}, log);
  project.provide("mcpServer", { url: server.url, keys, log });
  return async () => {
    await server.stop();
    rmSync(logs, { recursive: true, force: true });
  };
}
