import * as z from "zod";
import type { SourceCounts } from "../account/scorecard";
import { mergeSourceCounts, scorecardOf } from "../account/scorecard";
import { accountStub } from "../account/stub";
import type { UsageRange } from "../account/usage-query";
import type { SourceScorecard } from "../account/views";
import { ENVIRONMENTS, type Environment } from "../base/environment";
import { JURISDICTIONS } from "../base/jurisdiction";
import { logError } from "../base/log";
import { type Tenant, tenantName, tenantOf } from "../base/tenant";
import { kvKey } from "../keys/api-key";

// The operator's view of the data sources across customers (GET /admin/sources, `npm run stats`): each
// customer's account keeps its own counts exactly (usage-store.ts); this sums them. The customers are
// found through their key records in API_KEYS, as `npm run keys -- set-limits --customer` finds them.

const tenantSchema = z.object({
  customerId: z.string(),
  environment: z.enum(ENVIRONMENTS),
  jurisdiction: z.enum(JURISDICTIONS).optional(),
});

// Accounts asked at once.
const ACCOUNTS_AT_ONCE = 10;

/** Every customer with a key in `environment`: from the `keyid:` entries' metadata (read whole when it has none). */
async function tenantsIn(kv: KVNamespace, environment: Environment): Promise<Tenant[]> {
  const tenants = new Map<string, Tenant>();
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix: "keyid:", ...(cursor ? { cursor } : {}) });
    for (const { name, metadata } of page.keys) {
      let parsed = tenantSchema.safeParse(metadata);
      if (!parsed.success) {
        const hash = await kv.get(name);
        parsed = tenantSchema.safeParse(hash ? await kv.get(kvKey.byHash(hash), { type: "json" }) : null);
      }
      if (parsed.success && parsed.data.environment === environment)
        tenants.set(tenantName(parsed.data), tenantOf(parsed.data));
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return [...tenants.values()];
}

/** Per data source, the scorecard of every customer's traffic in `environment` over `range`. */
export async function sourcesAcrossCustomers(
  env: Env,
  environment: Environment,
  range: UsageRange,
): Promise<{ customers: number; unreadable: number; sources: SourceScorecard[] }> {
  const tenants = await tenantsIn(env.API_KEYS, environment);
  const lists: SourceCounts[][] = [];
  let unreadable = 0;
  for (let start = 0; start < tenants.length; start += ACCOUNTS_AT_ONCE) {
    const chunk = tenants.slice(start, start + ACCOUNTS_AT_ONCE);
    const read = await Promise.allSettled(chunk.map((tenant) => accountStub(env, tenant).sourceCounts(range)));
    for (const answer of read) {
      // One account that cannot answer leaves the others' sums standing; the answer says how many.
      if (answer.status === "fulfilled") lists.push(answer.value);
      else {
        unreadable++;
        logError("source_stats_account_failed", answer.reason, {});
      }
    }
  }
  return { customers: tenants.length, unreadable, sources: mergeSourceCounts(lists).map(scorecardOf) };
}
