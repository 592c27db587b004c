import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { type ApiKeyRecord, apiKeyWrites, hashApiKey } from "../src/tools-api";
import type { KvEntry } from "./kv-namespace";

// Fixed, documented keys for `npm run dev`. They exist only in the local store
// (`npm run keys -- seed-dev`); `npm run smoke` uses the test one by default.
export const DEV_KEYS = [
  { key: "ck_test_localdevelopmentkey0000000000000", keyId: "key_localdev_test", environment: "test" },
  { key: "ck_live_localdevelopmentkey0000000000000", keyId: "key_localdev_live", environment: "live" },
] as const;

// Shown once, at creation; `list`, the id entry and wrangler's log never carry it.
export const DEV_WEBHOOK_SECRET = "whsec_bG9jYWwtZGV2ZWxvcG1lbnQtd2ViaG9vay1zZWNyZXQ=";

/** What `npm run keys -- seed-dev` writes: the development keys' records, in the store's entries. */
export async function devKeyWrites(): Promise<KvEntry[]> {
  const entries: KvEntry[] = [];
  for (const { key, keyId, environment } of DEV_KEYS) {
    const record: ApiKeyRecord = {
      keyId,
      customerId: "cus_localdev",
      environment,
      name: "local development",
      createdAt: "2026-01-01T00:00:00.000Z",
      webhookSecret: DEV_WEBHOOK_SECRET,
    };
    entries.push(...apiKeyWrites(await hashApiKey(key), record));
  }
  return entries;
}

/**
 * The development values of the Worker's required secrets (wrangler.toml, [secrets]), written once in
 * scripts/dev-secrets.env: `npm run dev` hands that file to wrangler (`--env-file`), and so does every
 * server the tests and benchmarks start (scripts/local-server.ts). A deployment has only the secrets
 * its operator set.
 */
export const DEV_SECRETS_FILE = fileURLToPath(new URL("./dev-secrets.env", import.meta.url));
export const DEV_SECRETS = parseEnv(readFileSync(DEV_SECRETS_FILE, "utf8"));
