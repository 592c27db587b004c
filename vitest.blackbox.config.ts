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
    testTimeout: 90_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
