import { defineConfig } from "vitest/config";

// Black-box tests in Node against `wrangler dev` (see scripts/local-server.ts):
// the /docs page in Chromium, the reliability pipeline tests, and (BLACKBOX=tools)
// the operator tools and the README walk-through as a reader runs them, and
// (BLACKBOX=client) the typed client and `npm run enrich`.
export default defineConfig({
  test: {
    include:
      process.env.BLACKBOX === "reliability"
        ? ["test/reliability/blackbox/**/*.test.ts"]
        : process.env.BLACKBOX === "tools"
          ? ["test/tools/**/*.test.ts"]
          : process.env.BLACKBOX === "client"
            ? ["test/client/**/*.test.ts"]
            : ["test/browser/**/*.test.ts"],
    // The client suite's files share one server (test/client/global-setup.ts).
    globalSetup: process.env.BLACKBOX === "client" ? ["test/client/global-setup.ts"] : [],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // One file at a time, but for the reliability suite: its files each start their own server (own
    // port and state), and its two longest mostly wait (the key tool's runtimes, the load test's
    // queue), so two run at once.
    fileParallelism: process.env.BLACKBOX === "reliability",
    maxWorkers: process.env.BLACKBOX === "reliability" ? 2 : 1,
  },
});
