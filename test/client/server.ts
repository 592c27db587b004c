// One `wrangler dev` (scripts/local-server.ts) for all the client and enrich tests, started by
// global-setup.ts, with two keys of one test customer: `key`, whose limits are out of the way, and
// `slowKey`, of another customer, whose tiny limits make the server answer 429s.

import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { withKv } from "../../scripts/kv-store";
import { type LocalServer, startLocalServer } from "../../scripts/local-server";
import { apiKeyWrites, ENDPOINT_TYPES, issueApiKey } from "../../src/tools-api";

/** What global-setup.ts gives the test files: the server's address, its keys and the file of its logs. */
export interface SharedClientServer {
  url: string;
  key: string;
  slowKey: string;
  log: string;
  /** The fake HubSpot (test/fakes/hubspot.ts) on 127.0.0.1, which the server's HUBSPOT_API_URL names. */
  hubspotUrl: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    clientServer: SharedClientServer;
  }
}

export interface ClientTestServer {
  server: { url: string; output(): string };
  key: string;
  slowKey: string;
  hubspotUrl: string;
}

/** contact_info_request: 1 per 2 s; contact_info_status: 3 per 2 s. */
export const SLOW_LIMITS = {
  contact_info_request: { limit: 1, windowSeconds: 2 },
  contact_info_status: { limit: 3, windowSeconds: 2 },
  rate_limits: { limit: 3, windowSeconds: 2 },
} as const;

/** The shared server, in a test file. */
export function clientTestServer(): ClientTestServer {
  const { url, key, slowKey, log, hubspotUrl } = inject("clientServer");
  return { server: { url, output: () => readFileSync(log, "utf8") }, key, slowKey, hubspotUrl };
}

/** Starts the server; `log` gets what it prints. */
export async function startClientTestServer(
  log: string,
  hubspotUrl: string,
): Promise<{ server: LocalServer; shared: SharedClientServer }> {
  let key = "";
  let slowKey = "";
  const server = await startLocalServer({
    prepare: async (state) => {
      const fast = await issueApiKey({ customerId: "cus_client_fast", environment: "test" });
      fast.record.rateLimits = Object.fromEntries(
        ENDPOINT_TYPES.map((type) => [type, { limit: 10_000_000, windowSeconds: 60 }]),
      );
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
    vars: {
      RETRY_BASE_DELAY_SECONDS: "1",
      RETRY_MAX_DELAY_SECONDS: "2",
      REDRIVE_AFTER_SECONDS: "30",
      HUBSPOT_API_URL: hubspotUrl,
      // A stalled or trickling HubSpot answer (test/fakes/hubspot-faults.ts) is cut off this soon.
      CRM_TIMEOUT_MS: "2000",
    },
    logTo: log,
  });
  return { server, shared: { url: server.url, key, slowKey, log, hubspotUrl } };
}
