import { defineConfig } from "vitest/config";

// Black-box tests in Node against `wrangler dev` (see test/browser/local-server.ts).
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
