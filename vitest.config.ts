import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Tests run inside workerd with the real local KV, Durable Objects and Queues
// from wrangler.toml; only timings are shortened so retries finish quickly.
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: { RETRY_BASE_DELAY_SECONDS: 0, RETRY_MAX_DELAY_SECONDS: 0, ITEM_MAX_ATTEMPTS: 3 },
        queueConsumers: {
          "contact-info-items": { maxBatchTimeout: 0.05, maxRetries: 4, deadLetterQueue: "contact-info-items-dlq" },
          "contact-info-items-dlq": { maxBatchTimeout: 0.05, maxRetries: 10 },
        },
      },
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // The Worker's structured logs are for operators; keep test output readable.
    onConsoleLog: (log) => Boolean(process.env.SHOW_WORKER_LOGS) || !log.startsWith('{"event"'),
  },
});
