import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { FAKE_KEYS, fakeUpstreams } from "./test/fakes/upstreams.ts";

// Tests run inside workerd with the real local KV, Durable Objects and Queues
// from wrangler.toml; timings are shortened so retries finish quickly, and the
// services outside our system (DNS, the finders, the verifiers) are faked at the HTTP boundary.

// The Worker's required secrets (wrangler.toml, [secrets]), test values: the admin API's token
// (src/middleware/admin-token.ts), the secret people's identifiers are hashed under
// (src/contact-info/person-keys.ts), the one CRM tokens are sealed under (src/crm/token-box.ts), and
// the one MCP confirmations' requestState is signed under (src/mcp/request-state.ts).
// Wrangler looks for required secrets in the environment, and warns of any it does not find there;
// the bindings below give them to the Worker whatever a developer's .dev.vars holds.
const SECRETS = {
  ADMIN_TOKEN: "adm_testtoken",
  PERSON_KEY_SECRET: "pks_testsecret0000000000000000000000000",
  CRM_TOKEN_SECRET: "cts_testsecret0000000000000000000000000",
  MCP_STATE_SECRET: "mss_testsecret0000000000000000000000000",
};
Object.assign(process.env, SECRETS);

// What workerd prints for what tests do on purpose, dropped so that a passing run prints no stack trace
// (the plugin drops its siblings, such as "disconnected: operation canceled", the same way):
// - a stream a test stops reading (event streams, aborted uploads) ends with abortRead();
// - the scorecards test drops a table to make one account unreadable, and the plugin's RPC wrapper
//   reports the read's rejection as uncaught as well as returning it to the caller.
// The plugin writes each message whole, with its stack, in one write to stdout or stderr.
const EXPECTED_RUNTIME_MESSAGES = [
  "disconnected: abortRead() has been called",
  "no such table: usage_sources: SQLITE_ERROR",
];
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
    EXPECTED_RUNTIME_MESSAGES.some((message) => String(chunk).includes(message))
      ? true
      : write(chunk, ...rest)) as typeof stream.write;
}

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        outboundService: fakeUpstreams,
        bindings: {
          ...SECRETS,
          RETRY_BASE_DELAY_SECONDS: 0,
          RETRY_MAX_DELAY_SECONDS: 0,
          // Tests that need a re-drive move the clock past it (vi.setSystemTime).
          REDRIVE_AFTER_SECONDS: 60,
          ITEM_MAX_ATTEMPTS: 3,
          PROVIDER_TIMEOUT_MS: 500,
          DOH_URL: "https://doh.test/dns-query",
          HUNTER_API_URL: "https://hunter.test",
          PDL_API_URL: "https://pdl.test",
          HUNTER_API_KEY: FAKE_KEYS.hunter,
          PDL_API_KEY: FAKE_KEYS.pdl,
          APOLLO_API_URL: "https://apollo.test",
          PROSPEO_API_URL: "https://prospeo.test",
          ZEROBOUNCE_API_URL: "https://zerobounce.test",
          NEVERBOUNCE_API_URL: "https://neverbounce.test",
          APOLLO_API_KEY: FAKE_KEYS.apollo,
          PROSPEO_API_KEY: FAKE_KEYS.prospeo,
          ZEROBOUNCE_API_KEY: FAKE_KEYS.zerobounce,
          NEVERBOUNCE_API_KEY: FAKE_KEYS.neverbounce,
          // The fake vendors rate-limit one person at a time (`-busy.example`), which a governor
          // rightly turns into a pause of the whole vendor for every later test; the governor's
          // own tests turn it on (test/integration/vendor-governor*.test.ts).
          VENDOR_GOVERNOR: "off",
          // Tests expect the sources in their configured order; the learned order's own tests turn it on.
          WATERFALL_ORDER: "fixed",
          WEBHOOK_MAX_ATTEMPTS: 3,
          WEBHOOK_TIMEOUT_MS: 500,
          // Endpoint deliveries: three attempts, each retry due at once (tests run the hub's alarm).
          WEBHOOK_RETRY_SCHEDULE: "0s,0s",
          // The fake CRMs (test/fakes/).
          HUBSPOT_API_URL: "https://hubspot.test",
          SALESFORCE_HOST_PATTERN: "*.salesforce.test",
          // A stalled or trickling CRM answer is cut off this soon (test/fakes/hubspot-faults.ts); long enough
          // that a fake's page of 250 members is never cut off on a loaded CI machine (2 s once was).
          CRM_TIMEOUT_MS: 5000,
        },
        queueConsumers: {
          "contact-info-items": { maxBatchTimeout: 0.05, maxRetries: 4, deadLetterQueue: "contact-info-items-dlq" },
          "contact-info-items-dlq": { maxBatchTimeout: 0.05, maxRetries: 10 },
          "contact-info-webhooks": {
            maxBatchTimeout: 0.05,
            maxRetries: 5,
            deadLetterQueue: "contact-info-webhooks-dlq",
          },
          "contact-info-webhooks-dlq": { maxBatchTimeout: 0.05, maxRetries: 5 },
        },
      },
    }),
  ],
  test: {
    // `npm run test:reliability` runs the longer workerd suites (fuzzing, redelivery, security).
    include:
      process.env.SUITE === "reliability"
        ? ["test/reliability/workers/**/*.test.ts"]
        : ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
    // One workerd per worker, kept from file to file: a fresh one per file (the default) cost about
    // 3 s a file in runtime start and module loading, more than the tests themselves. Files stay
    // apart by their own keys and batches, and setup.ts lets no batch outlive its test.
    isolate: false,
    // Both cores: the tests wait on queues and timers much of the time.
    maxWorkers: 2,
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup.ts"],
    // The reliability suite's property tests are fixed amounts of work (1,500 fuzzed requests, 40
    // delivery orders); on two cores shared with the other suites (.ci/run) one takes over 30 s.
    // The others get 60 s: a test cut off by its timeout goes on in a kept runtime (isolate: false),
    // where its fake clock would trouble the next file's tests.
    testTimeout: process.env.SUITE === "reliability" ? 180_000 : 60_000,
    hookTimeout: 90_000,
    // A runtime kept from file to file (isolate: false) is closed after its last file while work
    // that file's tests left behind (a retried message ending in the dead-letter queue) may still
    // log: that line has no test left to tell, so losing it is no error. Any other error is.
    onUnhandledError: (error) => !/Closing rpc while "onUserConsoleLog" was pending/.test(error.message),
    // The Worker's structured logs are for operators; keep test output readable.
    onConsoleLog: (log) => Boolean(process.env.SHOW_WORKER_LOGS) || !log.startsWith('{"event"'),
  },
});
