import { defineConfig } from "vitest/config";

// Black-box tests in Node against `wrangler dev` (see test/local-server.ts):
// the /docs page in Chromium, and the reliability pipeline tests.
export default defineConfig({
  test: {
    include: process.env.BLACKBOX === "reliability" ? ["test/reliability/blackbox/**/*.test.ts"] : ["test/browser/**/*.test.ts"],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
