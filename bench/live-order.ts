// The learned order against the fixed one, for `npm run bench:live` (`--orders N`): the same batches of
// N people (email only) on the same seeded fake vendors, whose hit rates differ by company domain
// (each domain deals 0.9, 0.5, 0.2 and 0.05 to the four finders in its own seeded order), once with
// WATERFALL_ORDER=fixed and once with learned, each on a fresh server and customer. Per order: paid
// vendor calls (finders, and all with the verifiers) and vendor spend (each vendor's declared price)
// per delivered verified email, and the found rate. The learned order starts knowing nothing: its
// first batch learns as its items finish, the second shows what it learned.
import { type ServerKey, seedKeys, startLocalServer } from "../scripts/local-server";
import { VENDORS as DECLARED } from "../src/tools-api";
import { batchBody, submitAndFollow } from "./batch-stream";
import { FINDERS, startFakeVendors, VENDORS, type Vendor, type Window } from "./live-vendors";
import { DEV_TOOLING } from "./report";
import type { OrderRun } from "./report-live-order";

export const RATES_BY_DOMAIN = [0.9, 0.5, 0.2, 0.05];
const BATCHES = 2;
const TIMEOUT_MS = 30 * 60_000;

const price = new Map(DECLARED.map((vendor) => [vendor.name, vendor.pricePerCall]));

/** Items whose emails include one a verifier judged valid, and items found, read a page at a time. */
async function delivered(url: string, key: ServerKey, batchId: string): Promise<{ verified: number; found: number }> {
  let verified = 0;
  let found = 0;
  let cursor: string | null = null;
  do {
    const page = (await (
      await fetch(`${url}/v2/live/person/contact-info/${batchId}?limit=1000${cursor ? `&cursor=${cursor}` : ""}`, {
        headers: { "x-api-key": key.key },
      })
    ).json()) as { items: { outcome: string | null; emails: { status: string }[] }[]; nextCursor: string | null };
    for (const item of page.items) {
      if (item.outcome === "found") found++;
      if (item.emails.some((email) => email.status === "valid")) verified++;
    }
    cursor = page.nextCursor;
  } while (cursor);
  return { verified, found };
}

async function run(
  order: OrderRun["order"],
  options: { items: number; seed: number; limits: Record<Vendor, readonly Window[]>; limitsText: string },
): Promise<OrderRun> {
  const vendors = await startFakeVendors({
    seed: options.seed,
    latency: { p50Ms: 200, p99Ms: 1500 },
    limits: options.limits,
    knows: { hunter: 0, pdl: 0, apollo: 0, prospeo: 0 },
    ratesByDomain: RATES_BY_DOMAIN,
  });
  let key: ServerKey | undefined;
  const server = await startLocalServer({
    devTooling: DEV_TOOLING,
    prepare: async (state) => {
      [key] = await seedKeys(state, [{ customerId: `cus_bench_order_${order}`, environment: "live" }]);
    },
    vars: {
      ...vendors.vars,
      VENDOR_RATE_LIMITS: options.limitsText,
      WATERFALL_ORDER: order,
      MAX_BATCH_ITEMS: String(Math.max(options.items, 10)),
    },
  }).catch(async (error) => {
    await vendors.close();
    throw error;
  });
  const batches: OrderRun["batches"] = [];
  try {
    for (let tag = 0; tag < BATCHES; tag++) {
      vendors.reset();
      const body = batchBody(1000 + tag, options.items, ["email"]);
      const { batchId } = await submitAndFollow(server.url, key!, body, { timeoutMs: TIMEOUT_MS, withItems: false });
      const { verified, found } = await delivered(server.url, key!, batchId);
      const counts = vendors.counts().vendors;
      const finderCalls = FINDERS.reduce((sum, vendor) => sum + counts[vendor].answered, 0);
      const paidCalls = VENDORS.reduce((sum, vendor) => sum + counts[vendor].answered, 0);
      const spendUsd = VENDORS.reduce((sum, vendor) => sum + counts[vendor].answered * (price.get(vendor) ?? 0), 0);
      const per = (value: number) => (verified === 0 ? Number.NaN : value / verified);
      batches.push({
        items: options.items,
        found,
        verifiedEmails: verified,
        finderCalls,
        paidCalls,
        spendUsd: Number(spendUsd.toFixed(4)),
        finderCallsPerVerifiedEmail: per(finderCalls),
        paidCallsPerVerifiedEmail: per(paidCalls),
        spendPerVerifiedEmailUsd: per(spendUsd),
        foundRate: found / options.items,
      });
      const last = batches[batches.length - 1]!;
      console.log(
        `${order} order, batch ${tag + 1}: ${last.verifiedEmails}/${last.items} verified emails, ${last.finderCalls} finder calls (${last.finderCallsPerVerifiedEmail.toFixed(3)} a verified email), ${last.paidCalls} paid calls (${last.paidCallsPerVerifiedEmail.toFixed(3)}), $${last.spendPerVerifiedEmailUsd.toFixed(4)} a verified email, found ${(last.foundRate * 100).toFixed(1)}%`,
      );
    }
  } finally {
    await Promise.all([server.stop(), vendors.close()]);
  }
  return { order, batches };
}

/** Both orders, fixed first; the saving is the learned order's against the fixed one's, batch by batch. */
export async function compareOrders(options: Parameters<typeof run>[1]) {
  const fixed = await run("fixed", options);
  const learned = await run("learned", options);
  const saving = fixed.batches.map((batch, i) => {
    const other = learned.batches[i]!;
    return {
      batch: i + 1,
      finderCalls: 1 - other.finderCallsPerVerifiedEmail / batch.finderCallsPerVerifiedEmail,
      paidCalls: 1 - other.paidCallsPerVerifiedEmail / batch.paidCallsPerVerifiedEmail,
      spend: 1 - other.spendPerVerifiedEmailUsd / batch.spendPerVerifiedEmailUsd,
      foundRateChange: other.foundRate - batch.foundRate,
    };
  });
  for (const s of saving)
    console.log(
      `batch ${s.batch}: the learned order made ${(s.paidCalls * 100).toFixed(1)}% fewer paid calls (finders ${(s.finderCalls * 100).toFixed(1)}%) and spent ${(s.spend * 100).toFixed(1)}% less per delivered verified email; found rate ${s.foundRateChange >= 0 ? "+" : ""}${(s.foundRateChange * 100).toFixed(1)} points`,
    );
  return { ratesByDomain: RATES_BY_DOMAIN, fixed, learned, saving };
}
