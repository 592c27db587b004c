// One `wrangler dev` (scripts/local-server.ts) for the client and enrich tests, with
// two keys of one test customer: `key`, whose limits are out of the way, and
// `slowKey`, of another customer, whose tiny limits make the server answer 429s.

import { withKv } from "../../scripts/kv-store";
import { type LocalServer, startLocalServer } from "../../scripts/local-server";
import { apiKeyWrites, ENDPOINT_TYPES, issueApiKey } from "../../src/tools-api";

export interface ClientTestServer {
  server: LocalServer;
  key: string;
  slowKey: string;
}

/** contact_info_request: 1 per 2 s; contact_info_status: 3 per 2 s. */
export const SLOW_LIMITS = {
  contact_info_request: { limit: 1, windowSeconds: 2 },
  contact_info_status: { limit: 3, windowSeconds: 2 },
  rate_limits: { limit: 3, windowSeconds: 2 },
} as const;

export async function startClientTestServer(): Promise<ClientTestServer> {
  let key = "";
  let slowKey = "";
  const server = await startLocalServer({
    prepare: async (state) => {
      const fast = await issueApiKey({ customerId: "cus_client_fast", environment: "test" });
      fast.record.rateLimits = Object.fromEntries(ENDPOINT_TYPES.map((type) => [type, { limit: 10_000_000, windowSeconds: 60 }]));
      const slow = await issueApiKey({ customerId: "cus_client_slow", environment: "test" });
      slow.record.rateLimits = { ...SLOW_LIMITS };
      await withKv({ target: "--local", persistTo: state }, "API_KEYS", (kv) =>
        kv.putAll([...apiKeyWrites(fast.hash, fast.record), ...apiKeyWrites(slow.hash, slow.record)]),
      );
      key = fast.key;
      slowKey = slow.key;
    },
    // As `npm run dev` runs it: retries after 1-2 s, so flaky.test settles within seconds, and
    // work lost by a reload (wrangler dev reloads when a source file changes) is re-sent after 30 s.
    vars: { RETRY_BASE_DELAY_SECONDS: "1", RETRY_MAX_DELAY_SECONDS: "2", REDRIVE_AFTER_SECONDS: "30" },
  });
  return { server, key, slowKey };
}
