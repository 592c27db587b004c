// npm run keys -- <create|list|show|revoke|set-limits|set-budget|set-mcp-allowance|seed-dev> … [--local|--remote]
import { parseArgs } from "node:util";
import {
  apiKeyWrites,
  ENDPOINT_TYPES,
  type EndpointType,
  issueApiKey,
  JURISDICTIONS,
  type Jurisdiction,
  kvKey,
  revocationSchema,
} from "../src/tools-api";
import { adminToken, sendRevocation } from "./admin-client";
import { BASE_URL_HELP, resolveBaseUrl } from "./base-url";
import { CliError, fail, runCli } from "./cli";
import { DEV_KEYS, DEV_WEBHOOK_SECRET, devKeyWrites } from "./dev-keys";
import { describeKey, keyIdOf, keysOf, listedRecordSchema, readKey } from "./key-records";
import { setKeyBudget, setMcpAllowance, showKey } from "./key-settings";
import type { KvStore } from "./kv-namespace";
import { type Store, withKv } from "./kv-store";

const USAGE = `usage: npm run keys -- <command> [--local [--persist-to DIR] | --remote]
  create --customer ID --environment test|live [--name NAME] [--jurisdiction ${JURISDICTIONS.join("|")}] [--json]
                                 --jurisdiction eu: the customer's objects are created in the EU and its results
                                 never go to a global store; all keys of a customer share its jurisdiction
  list [--json]
  show KEYID [--json]            the key's record (never its webhook secret): its monthly cap, its MCP allowance
  revoke KEYID [--base-url URL]  writes the revoked record, then tells the running service (the admin API, with
                                 $CONTACT_INFO_ADMIN_TOKEN; against a server on this machine the development token),
                                 whose limiter refuses the key at once
  --base-url URL                 ${BASE_URL_HELP}; with --remote, the deployment (required)
  set-limits (KEYID | --customer ID --environment test|live) --endpoint-type ${ENDPOINT_TYPES.join("|")} --limit N --window SECONDS
                                 limits are per customer and environment: every key of the customer there is written
  set-budget KEYID --monthly-credits N|none
                                 caps what the key's batches may charge per UTC month, inside its customer's
                                 budget (PUT /v2/{env}/me/budget); none lifts the cap
  set-mcp-allowance KEYID --credits N
                                 the credits one MCP tool call with this key may commit without asking its person
                                 (0: always ask; default MCP_ALLOWANCE_CREDITS, 100)
  seed-dev                       write the documented local development keys (local only)
  --persist-to DIR               with --local: the state directory of a \`wrangler dev --persist-to DIR\``;

function wholeNumber(value: string | undefined, flag: string): number {
  const number = Number(value);
  if (!value || !Number.isSafeInteger(number) || number < 1) fail(`${flag} must be a whole number of at least 1`);
  return number;
}

const COMMANDS = ["create", "list", "show", "revoke", "set-limits", "set-budget", "set-mcp-allowance", "seed-dev"];

interface Flags {
  customer?: string;
  environment?: string;
  name?: string;
  json: boolean;
  jurisdiction?: string;
  "base-url"?: string;
  "endpoint-type"?: string;
  limit?: string;
  window?: string;
  credits?: string;
  "monthly-credits"?: string;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      customer: { type: "string" },
      environment: { type: "string" },
      name: { type: "string" },
      json: { type: "boolean", default: false },
      "endpoint-type": { type: "string" },
      limit: { type: "string" },
      window: { type: "string" },
      credits: { type: "string" },
      "monthly-credits": { type: "string" },
      local: { type: "boolean", default: false },
      remote: { type: "boolean", default: false },
      "persist-to": { type: "string" },
      jurisdiction: { type: "string" },
      "base-url": { type: "string" },
    },
  });
  if (values.local && values.remote) fail("choose one of --local and --remote");
  if (values.remote && values["persist-to"]) fail("--persist-to is for the local store; drop it with --remote");
  const store: Store = values.remote ? { target: "--remote" } : { target: "--local", persistTo: values["persist-to"] };
  const [command, ...rest] = positionals;
  if (!command) fail(`give a command: ${COMMANDS.join(", ")}`);
  if (!COMMANDS.includes(command)) fail(`unknown command ${command}; the commands are ${COMMANDS.join(", ")}`);
  await withKv(store, "API_KEYS", (kv) => run(command, rest, values, store, kv));
}

async function run(command: string, rest: string[], values: Flags, store: Store, kv: KvStore): Promise<void> {
  const remote = store.target === "--remote";
  switch (command) {
    case "create": {
      const environment = values.environment;
      if (environment !== "test" && environment !== "live") fail(`create needs --environment test|live`);
      if (!values.customer) fail(`create needs --customer ID`);
      const jurisdiction = values.jurisdiction as Jurisdiction | undefined;
      if (jurisdiction !== undefined && !JURISDICTIONS.includes(jurisdiction))
        fail(`--jurisdiction must be one of ${JURISDICTIONS.join(", ")}`);
      // The customer's objects (its account, and its limiter with its Idempotency-Keys) are found through any of its keys.
      // One list call: the id entries' metadata carries the record.
      const other = (await kv.list(kvKey.byId("")))
        .map((entry) => listedRecordSchema.safeParse(entry.metadata).data)
        .find(
          (r) =>
            r !== undefined &&
            r.customerId === values.customer &&
            r.environment === environment &&
            r.jurisdiction !== jurisdiction,
        );
      if (other)
        fail(
          `${values.customer} (${environment}) already has ${other.keyId} ${other.jurisdiction ? `in jurisdiction ${other.jurisdiction}` : "without a jurisdiction"}; a customer's keys share one`,
        );
      const { key, hash, record } = await issueApiKey({
        customerId: values.customer,
        environment,
        name: values.name,
        jurisdiction,
      });
      await kv.putAll(apiKeyWrites(hash, record));
      if (values.json) console.log(JSON.stringify({ key, ...record }));
      else {
        console.log(
          `Created ${record.keyId} for ${record.customerId} (${environment}${jurisdiction ? `, jurisdiction ${jurisdiction}` : ""}). Shown once, store them now:`,
        );
        console.log(`API key:                ${key}`);
        console.log(`Webhook signing secret: ${record.webhookSecret}`);
      }
      return;
    }
    case "list": {
      const records = [];
      for (const entry of await kv.list(kvKey.byId(""))) {
        records.push(
          listedRecordSchema.safeParse(entry.metadata).data ??
            listedRecordSchema.parse((await readKey(keyIdOf(entry), kv, remote)).record),
        );
      }
      if (values.json) console.log(JSON.stringify(records));
      else if (records.length === 0) console.log("No keys.");
      else for (const r of records) console.log(describeKey(r));
      return;
    }
    case "show":
      return showKey(rest[0], values.json, kv, remote);
    case "set-budget":
      return setKeyBudget(rest[0], values["monthly-credits"], kv, remote);
    case "set-mcp-allowance":
      return setMcpAllowance(rest[0], values.credits, kv, remote);
    case "revoke": {
      const keyId = rest[0] ?? fail(`revoke needs a KEYID`);
      if (remote && !values["base-url"] && !process.env.CONTACT_INFO_BASE_URL)
        fail("revoke --remote needs --base-url URL (or CONTACT_INFO_BASE_URL): the deployment to tell");
      const baseUrl = resolveBaseUrl(values["base-url"]);
      const token = adminToken(baseUrl);
      if (remote && !token) fail("revoke --remote needs CONTACT_INFO_ADMIN_TOKEN, the deployment's ADMIN_TOKEN secret");
      const { hash, record } = await readKey(keyId, kv, remote);
      await kv.putAll(apiKeyWrites(hash, { ...record, revokedAt: new Date().toISOString() }));
      const problem = token
        ? await sendRevocation(baseUrl, token, revocationSchema.parse(record))
        : `no admin token for ${baseUrl} (set CONTACT_INFO_ADMIN_TOKEN)`;
      if (problem === null) {
        console.log(`Revoked ${record.keyId}: ${baseUrl} refuses it from now on.`);
        return;
      }
      const later = `Revoked ${record.keyId} in KV, but ${problem}: a server that cached the key accepts it for up to API_KEY_CACHE_TTL_SECONDS (60 s) more.`;
      // A deployment keeps cached copies; a local store without a server running has none to wait out.
      if (remote) throw new CliError(later, 1);
      console.log(later);
      return;
    }
    case "set-limits": {
      const type = values["endpoint-type"] as EndpointType;
      if (!ENDPOINT_TYPES.includes(type)) fail(`--endpoint-type must be one of ${ENDPOINT_TYPES.join(", ")}`);
      const limit = wholeNumber(values.limit, "--limit");
      const windowSeconds = wholeNumber(values.window, "--window");
      // The customer's keys share one budget, so they must agree on its limits: a
      // KEYID stands for its customer and environment.
      const named = rest[0] ? (await readKey(rest[0], kv, remote)).record : undefined;
      const customerId = named?.customerId ?? values.customer ?? fail(`set-limits needs a KEYID or --customer ID`);
      const environment = named?.environment ?? values.environment;
      if (environment !== "test" && environment !== "live") fail(`set-limits --customer needs --environment test|live`);
      if (
        named &&
        ((values.customer && values.customer !== customerId) ||
          (values.environment && values.environment !== environment))
      ) {
        fail(`${named.keyId} belongs to ${customerId} (${environment}), not to the --customer/--environment given`);
      }
      const keys = await keysOf(customerId, environment, kv, remote);
      if (keys.length === 0) fail(`no keys for ${customerId} (${environment})`);
      await kv.putAll(
        keys.flatMap(({ hash, record }) =>
          apiKeyWrites(hash, { ...record, rateLimits: { ...record.rateLimits, [type]: { limit, windowSeconds } } }),
        ),
      );
      console.log(
        `${customerId} (${environment}): ${type} limited to ${limit} per ${windowSeconds} s on ${keys.map(({ record }) => record.keyId).join(", ")} (in effect within API_KEY_CACHE_TTL_SECONDS).`,
      );
      return;
    }
    case "seed-dev": {
      if (store.target !== "--local") fail("seed-dev writes local development keys only");
      await kv.putAll(await devKeyWrites());
      console.log(
        `Local development keys ready: ${DEV_KEYS.map((k) => k.key).join(", ")} (webhook secret ${DEV_WEBHOOK_SECRET})`,
      );
      return;
    }
  }
}

await runCli(USAGE, main);
