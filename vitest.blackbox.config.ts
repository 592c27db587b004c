import { defineConfig } from "vitest/config";

// Black-box tests in Node against `wrangler dev` (see scripts/local-server.ts):
// the /docs page in Chromium, the reliability pipeline tests, and (BLACKBOX=tools)
// the operator tools and the README walk-through as a reader runs them, and
// (BLACKBOX=client) the typed client and `npm run enrich`, and (BLACKBOX=mcp) the MCP
// server at /mcp through the official SDK client.
export default defineConfig({
  test: {
    include:
      process.env.BLACKBOX === "reliability"
        ? ["test/reliability/blackbox/**/*.test.ts"]
        : process.env.BLACKBOX === "tools"
          ? ["test/tools/**/*.test.ts"]
          : process.env.BLACKBOX === "client"
            ? ["test/client/**/*.test.ts"]
            : process.env.BLACKBOX === "mcp"
              ? ["test/mcp/**/*.test.ts"]
              : ["test/browser/**/*.test.ts"],
    // The client suite's files share one server (test/client/global-setup.ts), and so do the MCP files
    // with the default configuration (test/mcp/global-setup.ts).
    globalSetup:
      process.env.BLACKBOX === "client"
        ? ["test/client/global-setup.ts"]
        : process.env.BLACKBOX === "mcp"
          ? ["test/mcp/global-setup.ts"]
          : [],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // Two files at once in the reliability and tools suites: each file starts its own server (own
    // port and state) or none, and their longest mostly wait (on the key tool starting a runtime per
    // command, on the load test's queue). The browser and client suites go one file at a time.
    fileParallelism: process.env.BLACKBOX === "reliability" || process.env.BLACKBOX === "tools",
    maxWorkers: process.env.BLACKBOX === "reliability" || process.env.BLACKBOX === "tools" ? 2 : 1,
  },
});
